// SPDX-License-Identifier: Apache-2.0
package org.neardup.eval;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.neardup.Deduplicator;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

class HtmlReportTest {
  private static Evaluation.Options options() {
    Evaluation.Options o = new Evaluation.Options();
    o.threads = 2;
    o.maxK = 8;
    o.warmUp = 0;
    o.throughputRounds = 1;
    o.throughputSample = 20;
    return o;
  }

  /** Without verification at k = 3 the generated set has mistakes of both kinds to show. */
  private static Evaluation.Result withMistakes() {
    Dataset data = GeneratedData.make(Deduplicator.builder().analyzer(), 60, 7);
    Evaluation.Engine base =
        new Evaluation.Engine(
            "--no-verify", Deduplicator.builder().verify(false).analyzer(), 3, 0.8);
    Evaluation.Engine verified =
        new Evaluation.Engine("verified", Deduplicator.builder().analyzer(), 3, 0.8);
    return Evaluation.run(
        data,
        base,
        t -> Deduplicator.builder().threshold(t).analyzer(),
        List.of(verified),
        options());
  }

  @Test
  void render_wellFormedWithEverySection() throws Exception {
    Evaluation.Result r = withMistakes();
    String html = HtmlReport.render(r, "generated");
    Document doc = parse(html);
    List<String> ids = new ArrayList<>();
    NodeList all = doc.getElementsByTagName("*");
    for (int i = 0; i < all.getLength(); i++) {
      String id = ((Element) all.item(i)).getAttribute("id");
      if (!id.isEmpty()) {
        ids.add(id);
      }
    }
    assertThat(ids)
        .containsExactly(
            "summary",
            "alternatives",
            "k",
            "threshold",
            "distributions",
            "kinds",
            "fp",
            "fn",
            "settings");
    // Two k charts, two threshold charts, two histograms.
    assertThat(doc.getElementsByTagName("svg").getLength()).isEqualTo(6);
    assertThat(doc.getElementsByTagName("figcaption").getLength()).isEqualTo(6);
    assertThat(r.falsePositives()).isNotEmpty();
    assertThat(r.falseNegatives()).isNotEmpty();
    assertThat(html).contains("<del>").contains("<ins>");
    assertThat(html).contains(r.base().settingsId().replace("&", "&amp;"));
  }

  @Test
  void render_selfContained_noScriptNoExternalResource() throws Exception {
    String html = HtmlReport.render(withMistakes(), "generated");
    Document doc = parse(html);
    assertThat(doc.getElementsByTagName("script").getLength()).isZero();
    assertThat(doc.getElementsByTagName("link").getLength()).isZero();
    assertThat(doc.getElementsByTagName("img").getLength()).isZero();
    NodeList all = doc.getElementsByTagName("*");
    for (int i = 0; i < all.getLength(); i++) {
      Element e = (Element) all.item(i);
      for (String attr : new String[] {"src", "href"}) {
        String v = e.getAttribute(attr);
        assertThat(v)
            .as("%s of <%s>", attr, e.getTagName())
            .satisfiesAnyOf(x -> assertThat(x).isEmpty(), x -> assertThat(x).startsWith("#"));
      }
    }
  }

  @Test
  void render_textsWithMarkupAndQuotes_escaped() throws Exception {
    // A document whose text is HTML and holds characters that must be escaped.
    String[] sides = HtmlReport.sideBySide("a <b>&amp; \"x\" y", "a <i>&amp; \"x\" z");
    assertThat(sides[0])
        .contains("&lt;")
        .contains("&amp;amp;")
        .contains("&quot;x&quot;")
        .doesNotContain("<b>");
    assertThat(sides[1]).doesNotContain("<i>");
    parse("<div>" + sides[0] + sides[1] + "</div>");
  }

  @Test
  void sideBySide_longUnchangedStretch_foldedAroundTheChange() {
    StringBuilder a = new StringBuilder();
    for (int i = 0; i < 200; i++) {
      a.append("word").append(i).append(' ');
    }
    String b = a.toString().replace("word100 ", "changed ");
    String[] sides = HtmlReport.sideBySide(a.toString(), b);
    assertThat(sides[0]).contains("<del>word100</del>").contains("unchanged words");
    assertThat(sides[1]).contains("<ins>changed</ins>");
    assertThat(sides[0]).doesNotContain("word10 ").contains("word99 ").contains("word101 ");
  }

  @Test
  void sideBySide_addedSpacingOnly_notMarked() {
    String[] sides = HtmlReport.sideBySide("相思 何日", "\u3000\u3000相思 何日\n");
    assertThat(sides[1]).doesNotContain("<ins>").contains("相思");
  }

  @Test
  void sideBySide_identicalTexts_shownWhole() {
    String[] sides =
        HtmlReport.sideBySide(
            "one two three four five six seven eight nine ten eleven twelve",
            "one two three four five six seven eight nine ten eleven twelve");
    assertThat(sides[0]).isEqualTo(sides[1]).contains("twelve").doesNotContain("unchanged");
  }

  @Test
  void textReport_containsScorePyTableAndSweeps() {
    Evaluation.Result r = withMistakes();
    String text = TextReport.render(r, "generated");
    assertThat(text)
        .contains(r.score().header("generated"))
        .contains(r.score().table())
        .contains("fingerprint only (--no-verify)")
        .contains("by similarity threshold")
        .contains("settings alternatives");
  }

  static Document parse(String html) throws Exception {
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
    f.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
    f.setExpandEntityReferences(false);
    DocumentBuilder b = f.newDocumentBuilder();
    b.setErrorHandler(null);
    return b.parse(new ByteArrayInputStream(html.getBytes(StandardCharsets.UTF_8)));
  }
}
