// SPDX-License-Identifier: Apache-2.0
package org.neardup.server;

import io.undertow.util.HttpString;
import io.undertow.util.Methods;
import org.jspecify.annotations.Nullable;

/** The endpoints: method, path template, and whether the request has a body. */
enum Route {
  HEALTH("GET", "/health", false),
  READY("GET", "/ready", false),
  METRICS("GET", "/metrics", false),
  OPENAPI("GET", "/openapi.json", false),
  LIST_COLLECTIONS("GET", "/v1/collections", false),
  CREATE_COLLECTION("POST", "/v1/collections", true),
  GET_COLLECTION("GET", "/v1/collections/{c}", false),
  DROP_COLLECTION("DELETE", "/v1/collections/{c}", false),
  INSERT("POST", "/v1/collections/{c}/documents", true),
  GET_DOCUMENT("GET", "/v1/collections/{c}/documents", false),
  DELETE_DOCUMENT("DELETE", "/v1/collections/{c}/documents", false),
  BATCH("POST", "/v1/collections/{c}/batch", true),
  CHECK("POST", "/v1/collections/{c}/check", true),
  FINGERPRINT("POST", "/v1/collections/{c}/fingerprint", true),
  STATS("GET", "/v1/collections/{c}/stats", false);

  final HttpString method;
  final String template;
  final boolean hasBody;

  Route(String method, String template, boolean hasBody) {
    this.method = HttpString.tryFromString(method);
    this.template = template;
    this.hasBody = hasBody;
  }

  /** A matched request: the route and the collection name in its path, if any. */
  record Match(Route route, @Nullable String collection) {}

  /**
   * Matches a request.
   *
   * @throws ApiException 404 for an unknown path, 405 (naming the allowed methods) for a known path
   *     with another method
   */
  static Match match(HttpString method, String path) throws ApiException {
    String template;
    String collection = null;
    if (path.startsWith("/v1/collections/")) {
      String rest = path.substring("/v1/collections/".length());
      int slash = rest.indexOf('/');
      collection = slash < 0 ? rest : rest.substring(0, slash);
      String tail = slash < 0 ? "" : rest.substring(slash);
      if (collection.isEmpty()) {
        throw unknown(method, path);
      }
      template = "/v1/collections/{c}" + tail;
    } else {
      template =
          path.endsWith("/") && path.length() > 1 ? path.substring(0, path.length() - 1) : path;
    }
    StringBuilder allowed = new StringBuilder();
    for (Route r : values()) {
      if (r.template.equals(template)) {
        if (r.method.equals(method)
            || (method.equals(Methods.HEAD) && r.method.equals(Methods.GET))) {
          return new Match(r, collection);
        }
        allowed.append(allowed.length() == 0 ? "" : ", ").append(r.method);
      }
    }
    if (allowed.length() > 0) {
      throw new ApiException(
          405, method + " is not allowed on " + template + " (allowed: " + allowed + ")");
    }
    throw unknown(method, path);
  }

  private static ApiException unknown(HttpString method, String path) {
    String shown = path.length() > 200 ? path.substring(0, 200) + "..." : path;
    return ApiException.notFound(
        "no endpoint " + method + " " + shown + "; the API is described at /openapi.json");
  }
}
