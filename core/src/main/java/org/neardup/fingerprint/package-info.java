// SPDX-License-Identifier: Apache-2.0
/**
 * From text to a 64-bit simhash fingerprint (Charikar 2002): weighted features, each hashed to 64
 * bits, summed as +weight for every 1-bit and -weight for every 0-bit, and the sign of each sum
 * taken as one bit of the fingerprint.
 *
 * <p>{@link org.neardup.fingerprint.FingerprintSettings} names everything that changes the value of
 * a fingerprint; its {@link org.neardup.fingerprint.FingerprintSettings#id()} travels with stored
 * fingerprints so incompatible ones are never compared. {@link
 * org.neardup.fingerprint.Fingerprinter} instances are thread-safe and allocate nothing per word.
 */
@NullMarked
package org.neardup.fingerprint;

import org.jspecify.annotations.NullMarked;
