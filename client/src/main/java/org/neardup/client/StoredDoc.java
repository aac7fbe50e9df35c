// SPDX-License-Identifier: Apache-2.0
package org.neardup.client;

import org.jspecify.annotations.Nullable;

/**
 * A stored document as the service returns it.
 *
 * @param expiresAt epoch milliseconds, or null when the collection keeps documents forever
 */
public record StoredDoc(
    String id, long fingerprint, long timestamp, @Nullable Long expiresAt, String cluster) {}
