// SPDX-License-Identifier: Apache-2.0
package org.neardup.server;

/** A request the service refuses: the HTTP status and the message of {@code {"error": ...}}. */
final class ApiException extends Exception {
  private static final long serialVersionUID = 1L;

  final int status;

  ApiException(int status, String message) {
    super(message, null, false, false);
    this.status = status;
  }

  static ApiException badRequest(String message) {
    return new ApiException(400, message);
  }

  static ApiException notFound(String message) {
    return new ApiException(404, message);
  }
}
