// SPDX-License-Identifier: Apache-2.0
/**
 * Shared test support: seeded fingerprint generators ({@link org.neardup.testkit.Fingerprints}) and
 * brute-force oracles ({@link org.neardup.testkit.BruteForce}) that every module's tests and the
 * benchmarks use, so that no two modules test against different ideas of "right".
 */
@NullMarked
package org.neardup.testkit;

import org.jspecify.annotations.NullMarked;
