// SPDX-License-Identifier: Apache-2.0
/** A {@link org.neardup.store.FingerprintStore} in HBase, shared by several service nodes. */
@NullMarked
package org.neardup.store.hbase;

import org.jspecify.annotations.NullMarked;
