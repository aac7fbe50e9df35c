// SPDX-License-Identifier: Apache-2.0
package org.neardup.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.neardup.store.embedded.EmbeddedStore;

/**
 * A collection's Chinese settings over HTTP: a jieba user dictionary sent as text and traditional
 * to simplified folding, kept with the collection, part of its analyzer id, and the same after a
 * restart; a changed or missing dictionary file makes the store refuse to open instead of comparing
 * fingerprints made two ways.
 */
class ChineseSettingsHttpTest {
  @TempDir Path dir;

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String DICT = "\uFEFF区块链技术 20000 n\n# jieba has no comments\n云原生平台\n";
  private static final String SIMPLIFIED = "这家公司发布了基于区块链技术的云原生平台，并表示将在明年向更多开发者开放。";
  private static final String TRADITIONAL = "這家公司發佈了基於區塊鏈技術的雲原生平臺，並表示將在明年向更多開發者開放。";

  private static JsonNode json(HttpResponse<String> r) throws IOException {
    return JSON.readTree(r.body());
  }

  private String create(TestServer t) throws Exception {
    String body =
        JSON.writeValueAsString(
            java.util.Map.of(
                "name", "zh", "lexicon", "jieba", "han", "fold", "userDictionary", DICT));
    HttpResponse<String> r = t.post("/v1/collections", body);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
    JsonNode c = json(r);
    assertThat(c.at("/settings/han").asText()).isEqualTo("fold");
    String sha =
        org.neardup.text.UserDictionary.of("d", DICT.getBytes(StandardCharsets.UTF_8)).sha256();
    assertThat(c.at("/settings/userDictionary").asText()).isEqualTo("sha256:" + sha);
    String analyzer = c.get("analyzer").asText();
    assertThat(analyzer).contains("+user:" + sha.substring(0, 16)).contains(";han=fold;");
    return analyzer;
  }

  @Test
  void userDictionaryAndHanFold_survivesRestart() throws Exception {
    String analyzer;
    try (TestServer t = TestServer.start(dir)) {
      analyzer = create(t);
      assertThat(t.client.insert("zh", "a", SIMPLIFIED).isNew()).isTrue();
      // The traditional repost is the same text once folded.
      assertThat(t.client.insert("zh", "b", TRADITIONAL).isNew()).isFalse();
    }
    try (TestServer t = TestServer.start(dir)) {
      JsonNode c = json(t.get("/v1/collections/zh"));
      assertThat(c.get("analyzer").asText()).isEqualTo(analyzer);
      assertThat(c.at("/settings/han").asText()).isEqualTo("fold");
      assertThat(t.client.check("zh", TRADITIONAL).isNew()).isFalse();
      assertThat(t.client.insert("zh", "c", TRADITIONAL + "（转载）").isNew()).isFalse();
    }
  }

  @Test
  void changedDictionaryFile_storeRefusesToOpen() throws Exception {
    try (TestServer t = TestServer.start(dir)) {
      create(t);
      t.client.insert("zh", "a", SIMPLIFIED);
    }
    Path file;
    try (Stream<Path> files = Files.list(dir.resolve("dictionaries"))) {
      file = files.findFirst().orElseThrow();
    }
    Files.writeString(file, DICT + "新词 5\n", StandardCharsets.UTF_8);
    assertThatThrownBy(() -> EmbeddedStore.builder(dir).background(false).open())
        .isInstanceOf(IOException.class)
        .hasMessageContaining("collection 'zh' cannot be opened")
        .hasMessageContaining("was changed");
    Files.delete(file);
    assertThatThrownBy(() -> EmbeddedStore.builder(dir).background(false).open())
        .isInstanceOf(IOException.class)
        .hasMessageContaining("is missing");
  }

  @Test
  void badSettings_400AndNothingStored() throws Exception {
    try (TestServer t = TestServer.start(dir)) {
      HttpResponse<String> r =
          t.post("/v1/collections", "{\"name\": \"x\", \"han\": \"sometimes\"}");
      assertThat(r.statusCode()).isEqualTo(400);
      assertThat(r.body()).contains("han must be 'keep' or 'fold'");
      r =
          t.post(
              "/v1/collections",
              "{\"name\": \"x\", \"lexicon\": \"none\", \"userDictionary\": \"词 5\"}");
      assertThat(r.statusCode()).isEqualTo(400);
      assertThat(r.body()).contains("a user dictionary needs a lexicon");
      r =
          t.post(
              "/v1/collections",
              "{\"name\": \"x\", \"lexicon\": \"jieba\", \"userDictionary\": \"词 99999999999999999\"}");
      assertThat(r.statusCode()).isEqualTo(400);
      assertThat(r.body()).contains("line 1: frequency");
      assertThat(t.get("/v1/collections/x").statusCode()).isEqualTo(404);
      assertThat(dir.resolve("dictionaries")).doesNotExist();
    }
  }

  @Test
  void serverOptions_hanAndUserDict_becomeTheDefaults() throws Exception {
    Path dict = dir.resolve("user.txt");
    Files.writeString(dict, DICT, StandardCharsets.UTF_8);
    ServerConfig c =
        ServerConfig.parse(
            new String[] {"--han", "keep", "--user-dict", dict.toString()}, java.util.Map.of());
    assertThat(c.defaults().chinese().han())
        .isEqualTo(org.neardup.fingerprint.FingerprintSettings.Han.KEEP);
    assertThat(c.defaults().chinese().userDictionary()).isNotNull();
    assertThat(ServerConfig.parse(new String[0], java.util.Map.of()).defaults().chinese().han())
        .isEqualTo(org.neardup.fingerprint.FingerprintSettings.Han.FOLD);
    assertThatThrownBy(
            () ->
                ServerConfig.parse(
                    new String[] {"--user-dict", dir.resolve("missing").toString()},
                    java.util.Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--user-dict: cannot read");
  }
}
