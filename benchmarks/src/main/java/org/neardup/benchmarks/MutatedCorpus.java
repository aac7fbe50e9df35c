// SPDX-License-Identifier: Apache-2.0
package org.neardup.benchmarks;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;

/**
 * Writes a corpus with the near-duplicate structure of reposted text: every document of a JSONL
 * corpus, then mutated copies of each, until the corpus has the asked number of documents.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar org.neardup.benchmarks.MutatedCorpus \
 *     BASE.jsonl[.gz] DOCS OUT.jsonl [SEED [BASES]]
 * </pre>
 *
 * <p>Document {@code i} is a copy of base document {@code i % B} (B base documents): the base text
 * itself for {@code i < B}, a mutation otherwise. So the first B lines are the base corpus in its
 * order, and each later round adds one copy of every base document, as reposts arrive after the
 * original. A mutation replaces, deletes or inserts characters at a rate drawn per copy from 1-5%
 * (inserted and replacing characters are taken from the same text, so Chinese gets Chinese and
 * English gets letters; an HTML page's tags are left intact), and one copy in four also gets a tag
 * or a line appended (a repost credit, a view counter). Everything is drawn from {@code SEED} and
 * the document's index, so the same arguments give the same bytes on any machine and any run.
 *
 * <p>Each output line is {@code {"id", "base", "text"}} plus the base record's {@code lang}, when
 * it has one; {@code base} is the base document's id, the cluster a reader would expect. Ids are
 * {@code BASEID} for round 0 and {@code BASEID~R} for round R.
 *
 * <p>From the dev set (26,979 documents), 1M documents is 37 rounds, about 650 MB.
 *
 * <p>{@code BASES} larger than the base corpus adds "mixes" as further base documents, so that a
 * larger corpus keeps the copies per text of a smaller one instead of repeating each text more
 * often (10M documents from the dev set alone are 371 copies of each text, 1M are 37; with {@code
 * BASES} 270,000 both are 37). Mix {@code j} (id {@code mixJ}) takes the language and length of
 * base document {@code j % B} and is made of sentences (split at {@code 。！？；!?;}, at ". " and at
 * line ends) drawn at random from all base documents of that language that are not HTML, at least
 * three, until it is that long. Two mixes share a sentence now and then, but hardly ever enough of
 * them to be near-duplicates of each other; mixes have no HTML. Without {@code BASES} (or with
 * {@code BASES} at most B) the output is what it always was.
 */
public final class MutatedCorpus {
  private static final String[] TAGS = {
    " #repost", " [转载]", "（转）", " via @newsbot", " 【来源：网络】", " (updated)",
  };
  private static final String[] LINES = {
    "\n转载请注明出处。", "\nRead more at the original site.", "\n阅读 %d · 评论 %d",
    "\nPosted %d days ago · %d views", "\n原标题：%d", "\nShared %d times",
  };

  record Base(String id, String text, String lang) {}

  private MutatedCorpus() {}

  public static void main(String[] args) throws IOException {
    if (args.length < 3 || args.length > 5) {
      System.err.println("usage: MutatedCorpus BASE.jsonl[.gz] DOCS OUT.jsonl [SEED [BASES]]");
      System.exit(2);
    }
    Path base = Path.of(args[0]);
    long docs = parse(args[1], "DOCS");
    long seed = args.length >= 4 ? parse(args[3], "SEED") : 20261124L;
    long total = args.length == 5 ? parse(args[4], "BASES") : 0;
    if (docs < 1) {
      System.err.println("DOCS must be at least 1, got " + args[1]);
      System.exit(2);
    }
    if (!Files.isRegularFile(base)) {
      System.err.println("no such file: " + base);
      System.exit(2);
    }
    List<Base> bases = read(base);
    if (bases.isEmpty()) {
      System.err.println(base + " holds no record with an id and a text");
      System.exit(2);
    }
    if (total < 0 || total > Integer.MAX_VALUE) {
      System.err.println("BASES must be in [0, 2^31 - 1], got " + args[4]);
      System.exit(2);
    }
    int all = (int) Math.max(total, bases.size());
    long bytes = write(bases, all, docs, seed, Path.of(args[2]));
    System.err.printf(
        Locale.ROOT,
        "%d documents from %d base documents (%d of them mixes; %d rounds), %.1f MB%n",
        docs,
        all,
        all - bases.size(),
        (docs + all - 1) / all,
        bytes / 1e6);
  }

  /** Writes the corpus from the base documents alone; returns the bytes written. */
  static long write(List<Base> bases, long docs, long seed, Path out) throws IOException {
    return write(bases, bases.size(), docs, seed, out);
  }

  /**
   * Writes the corpus from {@code all} base documents: {@code bases}, then mixes up to {@code all};
   * returns the bytes written.
   */
  static long write(List<Base> bases, int all, long docs, long seed, Path out) throws IOException {
    JsonFactory json = new JsonFactory();
    StringBuilder scratch = new StringBuilder();
    Mixer mixer = all > bases.size() ? new Mixer(bases) : null;
    try (OutputStream os = new BufferedOutputStream(Files.newOutputStream(out), 1 << 20);
        JsonGenerator g = json.createGenerator(os, JsonEncoding.UTF8)) {
      g.setRootValueSeparator(null);
      for (long i = 0; i < docs; i++) {
        int j = (int) (i % all);
        Base b = j < bases.size() ? bases.get(j) : mixer.mix(seed, j, scratch);
        long round = i / all;
        String text = round == 0 ? b.text() : mutate(b.text(), seed, i, scratch);
        g.writeStartObject();
        g.writeStringField("id", round == 0 ? b.id() : b.id() + "~" + round);
        g.writeStringField("base", b.id());
        if (b.lang() != null) {
          g.writeStringField("lang", b.lang());
        }
        g.writeStringField("text", text);
        g.writeEndObject();
        g.writeRaw('\n');
      }
      g.flush();
    }
    return Files.size(out);
  }

  /** Sentence ends: after 。！？；!?; (kept with their sentence), line ends, and ". ". */
  private static final Pattern SENTENCE_END = Pattern.compile("(?<=[。！？；!?;])|\\n|(?<=\\. )");

  /** Makes mixes: base documents made of sentences of the given ones (see the class comment). */
  static final class Mixer {
    private final List<Base> bases;
    private final Map<String, String[]> sentences = new HashMap<>();

    Mixer(List<Base> bases) {
      this.bases = bases;
      Map<String, LinkedHashSet<String>> byLang = new HashMap<>();
      for (Base b : bases) {
        if (b.text().startsWith("<")) {
          continue;
        }
        LinkedHashSet<String> pool = byLang.computeIfAbsent(lang(b), l -> new LinkedHashSet<>());
        for (String part : SENTENCE_END.split(b.text())) {
          String t = part.strip();
          if (t.codePointCount(0, t.length()) >= 4) {
            pool.add(t);
          }
        }
      }
      byLang.forEach((lang, pool) -> sentences.put(lang, pool.toArray(new String[0])));
    }

    private static String lang(Base b) {
      return b.lang() == null ? "" : b.lang();
    }

    /** Mix {@code j} (at least the number of base documents). */
    Base mix(long seed, int j, StringBuilder out) {
      Base template = bases.get(j % bases.size());
      String[] pool = sentences.get(lang(template));
      if (pool == null || pool.length == 0) { // no plain text in this language: any language's
        pool =
            sentences.values().stream()
                .filter(p -> p.length > 0)
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no base text has a sentence"));
      }
      SplittableRandom random = new SplittableRandom(seed * 0xC2B2AE3D27D4EB4FL + j);
      String gap = "zh".equals(template.lang()) ? "" : " ";
      out.setLength(0);
      for (int n = 0; n < 3 || out.length() < template.text().length(); n++) {
        if (n > 0) {
          out.append(gap);
        }
        out.append(pool[random.nextInt(pool.length)]);
      }
      return new Base("mix" + j, out.toString(), template.lang());
    }
  }

  /** A copy of {@code text} with 1-5% of its characters replaced, deleted or inserted. */
  static String mutate(String text, long seed, long index, StringBuilder out) {
    SplittableRandom random = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + index);
    double rate = 0.01 + 0.04 * random.nextDouble();
    out.setLength(0);
    int n = text.length();
    boolean markup = text.startsWith("<");
    boolean inTag = false;
    for (int i = 0; i < n; i++) {
      char c = text.charAt(i);
      if (markup && (c == '<' || c == '>')) {
        inTag = c == '<';
      }
      // A page's tags stay intact: a repost edits the words, not the markup around them.
      if (inTag || c == '>' || Character.isSurrogate(c) || random.nextDouble() >= rate) {
        out.append(c);
        continue;
      }
      switch (random.nextInt(3)) {
        case 0 -> out.append(donor(text, random)); // replace
        case 1 -> {} // delete
        default -> out.append(c).append(donor(text, random)); // insert after
      }
    }
    int tail = random.nextInt(8);
    if (tail == 0) {
      out.append(TAGS[random.nextInt(TAGS.length)]);
    } else if (tail == 1) {
      String line = LINES[random.nextInt(LINES.length)];
      out.append(String.format(Locale.ROOT, line, random.nextInt(10_000), random.nextInt(1_000)));
    }
    return out.toString();
  }

  /** A letter or digit of {@code text}, or 'x' when it has none that is not a surrogate. */
  private static char donor(String text, SplittableRandom random) {
    for (int tries = 0; tries < 8; tries++) {
      char c = text.charAt(random.nextInt(text.length()));
      if (Character.isLetterOrDigit(c) && !Character.isSurrogate(c)) {
        return c;
      }
    }
    return 'x';
  }

  static List<Base> read(Path path) throws IOException {
    List<Base> out = new ArrayList<>();
    JsonFactory json = new JsonFactory();
    try (InputStream raw = Files.newInputStream(path);
        InputStream in =
            path.getFileName().toString().endsWith(".gz")
                ? new GZIPInputStream(raw, 1 << 16)
                : raw;
        JsonParser p = json.createParser(in)) {
      while (p.nextToken() == JsonToken.START_OBJECT) {
        String id = null;
        String text = null;
        String lang = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String field = p.currentName();
          JsonToken t = p.nextToken();
          if (t == JsonToken.VALUE_STRING && field.equals("id")) {
            id = p.getText();
          } else if (t == JsonToken.VALUE_NUMBER_INT && field.equals("id")) {
            id = p.getText();
          } else if (t == JsonToken.VALUE_STRING && field.equals("text")) {
            text = p.getText();
          } else if (t == JsonToken.VALUE_STRING && field.equals("lang")) {
            lang = p.getText();
          } else {
            p.skipChildren();
          }
        }
        if (id != null && text != null && !text.isEmpty()) {
          out.add(new Base(id, text, lang));
        }
      }
    }
    return out;
  }

  private static long parse(String s, String what) {
    try {
      return Long.parseLong(s.replace("_", ""));
    } catch (NumberFormatException e) {
      System.err.println(what + " must be a whole number, got '" + s + "'");
      System.exit(2);
      return 0;
    }
  }
}
