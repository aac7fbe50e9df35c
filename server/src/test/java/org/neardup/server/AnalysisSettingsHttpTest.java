// SPDX-License-Identifier: Apache-2.0
package org.neardup.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.neardup.fingerprint.FingerprintSettings;
import org.neardup.index.BlockScheme;
import org.neardup.store.AnalysisOptions;

/**
 * The options of {@code neardup dedup} that decide what is a duplicate, as collection settings:
 * given at creation (one by one or as {@code "preset": "web"}), shown by GET, part of the analyzer
 * id, the same after a restart, with the server's flags as the defaults.
 */
class AnalysisSettingsHttpTest {
  @TempDir Path dir;

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String POST = "世上若要人情好，赊去物件莫取钱。\n    --《增广贤文》";
  private static final String POST_LATER = POST + "\n发布时间：2021-03-04 10:00　阅读：1843　评论：27";
  private static final String PAGE =
      "<html><body><nav>Home | News | Sports</nav><article><p>The city council approved the new"
          + " budget on Tuesday evening, adding money for parks, libraries and two new schools.</p>"
          + "<p>Posted 2020-12-01 08:15 · 4,512 views</p></article><footer>© Example</footer>"
          + "</body></html>";

  @Test
  void presetWeb_storedShownAndAppliedAcrossRestart() throws Exception {
    String analyzer;
    try (TestServer t = TestServer.start(dir)) {
      HttpResponse<String> r =
          t.post(
              "/v1/collections",
              JSON.writeValueAsString(Map.of("name", "web", "preset", "web", "topN", 32)));
      assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
      JsonNode s = JSON.readTree(r.body()).get("settings");
      assertThat(s.get("numbers").asText()).isEqualTo("fold");
      assertThat(s.get("html").asText()).isEqualTo("main");
      assertThat(s.get("volatileLines").asText()).isEqualTo("drop");
      assertThat(s.get("topN").asInt()).isEqualTo(32);
      assertThat(s.get("sketchCapacity").asInt()).isEqualTo(512);
      assertThat(s.get("scheme").asText()).isEqualTo("4:1");
      analyzer = JSON.readTree(r.body()).get("analyzer").asText();
      assertThat(analyzer)
          .contains(";top=32;")
          .contains(";volatile=drop;")
          .contains("numbers=fold");
      assertThat(t.client.insert("web", "a", POST).isNew()).isTrue();
      assertThat(t.client.insert("web", "b", POST_LATER).isNew()).isFalse();

      // The default collection has the plain defaults: the counter line makes it another text.
      assertThat(t.client.insert("default", "a", POST).isNew()).isTrue();
      assertThat(t.client.insert("default", "b", POST_LATER).isNew()).isTrue();
      JsonNode d = JSON.readTree(t.get("/v1/collections/default").body()).get("settings");
      assertThat(d.get("numbers").asText()).isEqualTo("keep");
      assertThat(d.get("volatileLines").asText()).isEqualTo("keep");
    }
    try (TestServer t = TestServer.start(dir)) {
      JsonNode c = JSON.readTree(t.get("/v1/collections/web").body());
      assertThat(c.get("analyzer").asText()).isEqualTo(analyzer);
      assertThat(c.at("/settings/html").asText()).isEqualTo("main");
      assertThat(c.at("/settings/topN").asInt()).isEqualTo(32);
      assertThat(t.client.check("web", POST + "\nLast edited: 2022-01-02 03:04").isNew()).isFalse();
    }
  }

  @Test
  void fieldsBesidePreset_win_andSchemeAndCapacityAreKept() throws Exception {
    try (TestServer t = TestServer.start(dir)) {
      HttpResponse<String> r =
          t.post(
              "/v1/collections",
              "{\"name\": \"x\", \"preset\": \"web\", \"html\": \"visible\", \"scheme\": \"5:2\","
                  + " \"sketchCapacity\": 1024}");
      assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
      JsonNode s = JSON.readTree(r.body()).get("settings");
      assertThat(s.get("html").asText()).isEqualTo("visible");
      assertThat(s.get("numbers").asText()).isEqualTo("fold");
      assertThat(s.get("scheme").asText()).isEqualTo("5:2");
      assertThat(s.get("sketchCapacity").asInt()).isEqualTo(1024);
      assertThat(t.client.insert("x", "p", PAGE).isNew()).isTrue();
      assertThat(t.client.insert("x", "q", PAGE.replace("4,512", "9,876")).isNew()).isFalse();
    }
  }

  @Test
  void idfTable_keptByHash_sameAfterRestart() throws Exception {
    String table = "council 11.5\nbudget 10.25\nparks 9.0\n";
    String sha =
        org.neardup.text.UserDictionary.of(
                "t", table.getBytes(java.nio.charset.StandardCharsets.UTF_8))
            .sha256();
    String analyzer;
    try (TestServer t = TestServer.start(dir)) {
      HttpResponse<String> r =
          t.post("/v1/collections", JSON.writeValueAsString(Map.of("name", "i", "idf", table)));
      assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
      JsonNode c = JSON.readTree(r.body());
      assertThat(c.at("/settings/idf").asText()).isEqualTo("sha256:" + sha);
      analyzer = c.get("analyzer").asText();
      assertThat(analyzer).contains(";idf=idf-sha256:" + sha.substring(0, 16));
      assertThat(t.client.insert("i", "a", PAGE).isNew()).isTrue();
      r = t.post("/v1/collections", "{\"name\": \"j\", \"idf\": \"council eleven\"}");
      assertThat(r.statusCode()).isEqualTo(400);
      assertThat(r.body()).contains("idf is not a number");
    }
    assertThat(dir.resolve("dictionaries/" + sha + ".txt")).hasContent(table.strip());
    try (TestServer t = TestServer.start(dir)) {
      JsonNode c = JSON.readTree(t.get("/v1/collections/i").body());
      assertThat(c.get("analyzer").asText()).isEqualTo(analyzer);
      assertThat(t.client.check("i", PAGE).isNew()).isFalse();
    }
  }

  @Test
  void badAnalysisSettings_400AndNothingCreated() throws Exception {
    try (TestServer t = TestServer.start(dir)) {
      String[][] bad = {
        {"{\"name\": \"x\", \"preset\": \"news\"}", "preset must be 'none' or 'web'"},
        {"{\"name\": \"x\", \"numbers\": \"round\"}", "numbers must be 'keep' or 'fold'"},
        {"{\"name\": \"x\", \"html\": \"dom\"}", "html must be 'visible', 'main' or 'raw'"},
        {"{\"name\": \"x\", \"volatileLines\": true}", "volatileLines"},
        {"{\"name\": \"x\", \"topN\": -1}", "topN must be >= 0"},
        {"{\"name\": \"x\", \"topN\": \"20\"}", "field 'topN' must be an integer"},
        {"{\"name\": \"x\", \"sketchCapacity\": 8}", "sketchCapacity must be in [16, 1048576]"},
        {"{\"name\": \"x\", \"scheme\": \"4-1\"}", "scheme must look like BLOCKS:REQUIRED"},
      };
      for (String[] b : bad) {
        HttpResponse<String> r = t.post("/v1/collections", b[0]);
        assertThat(r.statusCode()).as(b[0]).isEqualTo(400);
        assertThat(r.body()).as(b[0]).contains(b[1]);
      }
      assertThat(t.get("/v1/collections/x").statusCode()).isEqualTo(404);
    }
  }

  @Test
  void serverFlags_areTheDefaultsOfNewCollections() {
    ServerConfig c =
        ServerConfig.parse(
            new String[] {
              "--preset",
              "web",
              "--numbers",
              "keep",
              "--top-n",
              "16",
              "--sketch-capacity",
              "256",
              "--scheme",
              "6:3",
              "--data",
              dir.toString()
            },
            Map.of());
    AnalysisOptions a = c.defaults().analysis();
    assertThat(a.foldNumbers()).isFalse();
    assertThat(a.html()).isEqualTo(FingerprintSettings.Html.MAIN);
    assertThat(a.volatileLines()).isEqualTo(FingerprintSettings.Volatile.DROP);
    assertThat(a.topN()).isEqualTo(16);
    assertThat(a.sketchCapacity()).isEqualTo(256);
    assertThat(a.scheme()).isEqualTo(BlockScheme.parse("6:3"));
    assertThat(ServerConfig.parse(new String[0], Map.of()).defaults().analysis())
        .isEqualTo(AnalysisOptions.DEFAULT);
  }
}
