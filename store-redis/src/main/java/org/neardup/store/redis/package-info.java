// SPDX-License-Identifier: Apache-2.0
/**
 * A {@link org.neardup.store.FingerprintStore} in Redis that several service nodes share: {@code
 * neardup serve --store redis --store-option url=redis://HOST:PORT}. See {@link
 * org.neardup.store.redis.RedisStore} for the layout and the protocol.
 */
@NullMarked
package org.neardup.store.redis;

import org.jspecify.annotations.NullMarked;
