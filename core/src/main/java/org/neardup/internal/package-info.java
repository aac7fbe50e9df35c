// SPDX-License-Identifier: Apache-2.0
/** Helpers shared by neardup's packages. Not API: may change in any release. */
@NullMarked
package org.neardup.internal;

import org.jspecify.annotations.NullMarked;
