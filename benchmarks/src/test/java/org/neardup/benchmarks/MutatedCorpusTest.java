// SPDX-License-Identifier: Apache-2.0
package org.neardup.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * MutatedCorpus is the benchmark's input: its bytes must not move (every figure of the realistic
 * corpus was measured on them), and mixes must make more base texts from the same ones.
 */
class MutatedCorpusTest {
  @TempDir Path tmp;

  /** 30 dev-set documents (public domain, BSD and MIT sources), two of them HTML. */
  private List<MutatedCorpus.Base> base() throws IOException {
    Path p = tmp.resolve("base.jsonl");
    try (InputStream in = MutatedCorpusTest.class.getResourceAsStream("/mutated-base.jsonl")) {
      Files.copy(in, p);
    }
    return MutatedCorpus.read(p);
  }

  @Test
  void write_withoutMixes_sameBytesAsBeforeMixes() throws Exception {
    // The digest of `MutatedCorpus mutated-base.jsonl 300 OUT` written by the code before mixes
    // (6530db5): the corpora of the earlier figures are the same files.
    Path out = tmp.resolve("out.jsonl");
    List<MutatedCorpus.Base> b = base();
    assertThat(b).hasSize(30);
    MutatedCorpus.write(b, 300, 20261124L, out);
    assertThat(sha256(out))
        .isEqualTo("f8d1fdd40fde601f4e8c8e97821337f8b7dac703f67f1296915b6c39d9ed7fef");
    Path same = tmp.resolve("same.jsonl");
    MutatedCorpus.write(b, b.size(), 300, 20261124L, same);
    assertThat(Files.readAllBytes(same)).isEqualTo(Files.readAllBytes(out));
  }

  @Test
  void write_withMixes_moreBasesSameCopiesEachDeterministic() throws Exception {
    List<MutatedCorpus.Base> b = base();
    int all = 90;
    Path out = tmp.resolve("mixed.jsonl");
    MutatedCorpus.write(b, all, 450, 7L, out);
    Path again = tmp.resolve("again.jsonl");
    MutatedCorpus.write(b, all, 450, 7L, again);
    assertThat(Files.readAllBytes(again)).isEqualTo(Files.readAllBytes(out));

    ObjectMapper json = new ObjectMapper();
    List<String> lines = Files.readAllLines(out, StandardCharsets.UTF_8);
    assertThat(lines).hasSize(450);
    for (int i = 0; i < lines.size(); i++) {
      JsonNode d = json.readTree(lines.get(i));
      int j = i % all;
      int round = i / all;
      String baseId = j < b.size() ? b.get(j).id() : "mix" + j;
      assertThat(d.get("base").asText()).isEqualTo(baseId);
      assertThat(d.get("id").asText()).isEqualTo(round == 0 ? baseId : baseId + "~" + round);
      MutatedCorpus.Base template = b.get(j % b.size());
      assertThat(d.get("lang").asText()).isEqualTo(template.lang());
      String text = d.get("text").asText();
      if (j < b.size() && round == 0) {
        assertThat(text).isEqualTo(template.text());
      }
      if (j >= b.size() && round == 0) {
        // A mix: plain text at least as long as its template, of whole sentences.
        assertThat(text).doesNotStartWith("<");
        assertThat(text.length()).isGreaterThanOrEqualTo(template.text().length());
        assertThat(text).isNotEqualTo(template.text());
      }
    }
    // Mixes differ from each other: no two of the 60 are the same text.
    assertThat(
            lines.subList(b.size(), all).stream()
                .map(l -> l.substring(l.indexOf("\"text\"")))
                .distinct()
                .count())
        .isEqualTo(all - b.size());
  }

  private static String sha256(Path p) throws Exception {
    return HexFormat.of()
        .formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(p)));
  }
}
