// SPDX-License-Identifier: Apache-2.0
package org.neardup.store;

/**
 * What a collection holds of a stored document.
 *
 * @param id the caller's id
 * @param fingerprint its fingerprint
 * @param timestamp its timestamp in epoch milliseconds: the caller's, or its arrival when it had
 *     none
 * @param expiresAt when it leaves the retention window, epoch milliseconds; {@link Long#MAX_VALUE}
 *     without retention
 * @param cluster the id of its cluster's representative
 */
public record StoredDocument(
    String id, long fingerprint, long timestamp, long expiresAt, String cluster) {}
