// SPDX-License-Identifier: Apache-2.0
/**
 * A small Java client of the neardup service, over a plain socket for {@code http://} and the JDK's
 * {@code HttpURLConnection} for {@code https://}: {@link org.neardup.client.NeardupClient}.
 * Thread-safe; share one instance. Depends on Jackson only.
 */
@NullMarked
package org.neardup.client;

import org.jspecify.annotations.NullMarked;
