/**
 * A small Java client of the neardup service over {@code java.net.http}: {@link
 * org.neardup.client.NeardupClient}. Thread-safe; share one instance.
 *
 * <p>{@link org.neardup.client.LoadGenerator} drives a running service for benchmarks.
 */
@NullMarked
package org.neardup.client;

import org.jspecify.annotations.NullMarked;
