// SPDX-License-Identifier: Apache-2.0
package org.neardup.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A request body that arrives in many reads (the server keeps each read's chunk and joins them once
 * at the end) is the same body as one that arrives in one: a batch of ~600 KB, with a length and
 * chunked, is answered as the same documents sent in batches small enough for one read, byte for
 * byte.
 */
class RequestBodyTest {
  @TempDir Path dir;

  @Test
  void batch_bodyOfManyReads_answeredAsTheSameDocumentsInSmallBatches() throws Exception {
    List<String> lines = documents(new Random(42), 200);
    try (TestServer t = TestServer.start(dir)) {
      for (String c : List.of("fixed", "chunked", "small")) {
        assertThat(t.post("/v1/collections", "{\"name\":\"" + c + "\"}").statusCode())
            .isEqualTo(201);
      }
      String body = String.join("\n", lines) + "\n";
      assertThat(body.length()).isGreaterThan(500_000);
      HttpResponse<String> fixed = t.post("/v1/collections/fixed/batch", body);
      HttpResponse<String> chunked =
          t.http.send(
              HttpRequest.newBuilder(t.uri("/v1/collections/chunked/batch"))
                  .header("Content-Type", "application/x-ndjson")
                  .POST(
                      HttpRequest.BodyPublishers.ofInputStream(
                          () -> new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8))))
                  .build(),
              HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
      StringBuilder small = new StringBuilder();
      for (int i = 0; i < lines.size(); i += 2) {
        HttpResponse<String> r =
            t.post(
                "/v1/collections/small/batch",
                String.join("\n", lines.subList(i, Math.min(lines.size(), i + 2))) + "\n");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        small.append(r.body());
      }
      assertThat(fixed.statusCode()).as(fixed.body()).isEqualTo(200);
      assertThat(chunked.statusCode()).as(chunked.body()).isEqualTo(200);
      assertThat(fixed.body()).isEqualTo(small.toString());
      assertThat(chunked.body()).isEqualTo(small.toString());
      assertThat(fixed.body().lines().count()).isEqualTo(lines.size());
    }
  }

  /** Documents of ~3,000 characters, some of them near-copies of an earlier one. */
  private static List<String> documents(Random r, int n) {
    String[] words = {"新闻", "报道", "市场", "river", "stone", "今天", "北京", "light", "数据", "城市"};
    List<String> texts = new ArrayList<>();
    List<String> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      String text;
      if (i > 10 && r.nextInt(4) == 0) {
        text = texts.get(r.nextInt(texts.size())) + " 更新" + i;
      } else {
        StringBuilder s = new StringBuilder();
        while (s.length() < 3000) {
          s.append(words[r.nextInt(words.length)]).append(r.nextInt(100)).append(' ');
        }
        text = s.toString();
      }
      texts.add(text);
      out.add("{\"id\":\"d" + i + "\",\"text\":\"" + text + "\"}");
    }
    return out;
  }
}
