// SPDX-License-Identifier: Apache-2.0
/**
 * The online service: HTTP/JSON in front of a {@link org.neardup.store.FingerprintStore}.
 *
 * <p>{@link org.neardup.server.NeardupServer} runs Undertow: its I/O threads authenticate, route
 * and admit each request (bounded by count and bytes; beyond that the answer is 503 with {@code
 * Retry-After}) and read its body; worker threads parse, analyse the text (the expensive part,
 * outside any lock), call the store and write the answer once the store says the write is durable.
 * {@link org.neardup.server.Main} is the command line; {@code server/README.md} and {@code
 * /openapi.json} describe the API.
 */
@NullMarked
package org.neardup.server;

import org.jspecify.annotations.NullMarked;
