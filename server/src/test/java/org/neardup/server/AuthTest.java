// SPDX-License-Identifier: Apache-2.0
package org.neardup.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.neardup.client.NeardupClient;
import org.neardup.client.NeardupException;

/** With a token, every request needs it; without one, the server still listens on loopback only. */
class AuthTest {
  @TempDir Path dir;

  @Test
  public void token_requiredOnEveryEndpoint() throws Exception {
    try (TestServer t =
        TestServer.start(dir, java.time.InstantSource.system(), b -> b.token("s3cret-token"))) {
      for (String path :
          new String[] {"/health", "/ready", "/metrics", "/openapi.json", "/v1/collections"}) {
        assertThat(t.get(path).statusCode()).as(path).isEqualTo(401);
        assertThat(t.request("GET", path, "", "Authorization", "Bearer wrong").statusCode())
            .as(path)
            .isEqualTo(401);
        assertThat(t.request("GET", path, "", "Authorization", "Bearer s3cret-token").statusCode())
            .as(path)
            .isEqualTo(200);
      }
      assertThat(t.get("/v1/collections").headers().firstValue("WWW-Authenticate"))
          .hasValue("Bearer realm=\"neardup\"");
      assertThat(t.get("/v1/collections").body()).contains("Authorization: Bearer <token>");
      // Nothing is stored without the token.
      assertThat(
              t.request(
                      "POST",
                      "/v1/collections/default/documents",
                      "{\"id\":\"a\",\"text\":\"words here\"}",
                      "Authorization",
                      "Bearer s3cret-tokeN")
                  .statusCode())
          .isEqualTo(401);
      assertThat(t.client.collection("default").orElseThrow().documents())
          .isZero(); // client has the token

      NeardupClient anonymous = NeardupClient.builder(t.server.uri()).build();
      assertThatThrownBy(() -> anonymous.insert("default", "a", "some words"))
          .isInstanceOf(NeardupException.class)
          .satisfies(e -> assertThat(((NeardupException) e).status()).isEqualTo(401));
    }
  }

  @Test
  public void parse_tokenFromEnvironment_andLoopbackByDefault() {
    ServerConfig c =
        ServerConfig.parse(
            new String[] {"--port", "0"}, java.util.Map.of(ServerConfig.TOKEN_ENV, "from-env"));
    assertThat(c.token()).isEqualTo("from-env");
    assertThat(c.host()).isEqualTo("127.0.0.1");
    ServerConfig d =
        ServerConfig.parse(
            new String[] {"--token=flag"}, java.util.Map.of(ServerConfig.TOKEN_ENV, "from-env"));
    assertThat(d.token()).isEqualTo("flag");
    assertThat(ServerConfig.parse(new String[0], java.util.Map.of()).token()).isNull();
  }

  @Test
  public void tokenFile_keepsTheTokenOutOfTheCommandLine() throws Exception {
    Path f = dir.resolve("token");
    java.nio.file.Files.writeString(f, "  from-file-token \n");
    ServerConfig c =
        ServerConfig.parse(
            new String[] {"--token-file", f.toString()},
            java.util.Map.of(ServerConfig.TOKEN_ENV, "from-env"));
    assertThat(c.token()).isEqualTo("from-file-token");
    java.nio.file.Files.writeString(f, "\n");
    assertThatThrownBy(
            () ->
                ServerConfig.parse(new String[] {"--token-file", f.toString()}, java.util.Map.of()))
        .hasMessageContaining("holds no token");
    assertThatThrownBy(
            () ->
                ServerConfig.parse(
                    new String[] {"--token-file", dir.resolve("missing").toString()},
                    java.util.Map.of()))
        .hasMessageContaining("cannot be read");
    java.nio.file.Files.writeString(f, "file-tok\n");
    ServerConfig parsed =
        ServerConfig.parse(new String[] {"--token-file", f.toString()}, java.util.Map.of());
    try (TestServer t =
        TestServer.start(
            dir.resolve("data"), java.time.InstantSource.system(), b -> b.token(parsed.token()))) {
      assertThat(t.get("/v1/collections").statusCode()).isEqualTo(401);
      assertThat(
              t.request("GET", "/v1/collections", "", "Authorization", "Bearer file-tok")
                  .statusCode())
          .isEqualTo(200);
    }
  }
}
