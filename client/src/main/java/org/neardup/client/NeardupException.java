// SPDX-License-Identifier: Apache-2.0
package org.neardup.client;

import java.io.IOException;

/** The service refused a request: its HTTP status and {@code error} message. */
public final class NeardupException extends IOException {
  private static final long serialVersionUID = 1L;

  private final int status;
  private final long retryAfterSeconds;
  private final String error;

  public NeardupException(int status, String message, long retryAfterSeconds) {
    super("HTTP " + status + ": " + message);
    this.status = status;
    this.retryAfterSeconds = retryAfterSeconds;
    this.error = message;
  }

  /** The service's {@code error} message, without the status. */
  public String error() {
    return error;
  }

  /** The HTTP status, e.g. 400, 404, 413, 503. */
  public int status() {
    return status;
  }

  /** The Retry-After header in seconds, or -1 when absent. */
  public long retryAfterSeconds() {
    return retryAfterSeconds;
  }

  /** Whether retrying later may succeed (503: at capacity or shutting down). */
  public boolean isRetryable() {
    return status == 503 || status == 429;
  }
}
