// SPDX-License-Identifier: Apache-2.0
/**
 * Clusters of near-duplicates: the connected components of the "is a near-duplicate of" relation
 * (A~B and B~C put A, B and C in one cluster even when A and C are not near-duplicates), each
 * represented by its earliest member, the copy a deduplicator keeps.
 */
@NullMarked
package org.neardup.cluster;

import org.jspecify.annotations.NullMarked;
