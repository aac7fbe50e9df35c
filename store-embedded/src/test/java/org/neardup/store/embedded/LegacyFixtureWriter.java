// SPDX-License-Identifier: Apache-2.0
package org.neardup.store.embedded;

import java.io.IOException;
import java.nio.file.Path;
import org.neardup.store.Collection;
import org.neardup.store.CollectionSettings;
import org.neardup.store.Document;
import org.neardup.testkit.ManualClock;

/**
 * Wrote the fixture {@code fixture-jieba-dag-hmm/} read by {@link LegacyAnalyzerTest}: a jieba
 * collection of the release before jieba's mixed blocks (commit 257f27e, analyzer id {@code
 * ...seg=jieba-0.42.1/dag+hmm/...}). It was compiled and run against that commit's classes ({@code
 * git archive 257f27e}, built with {@code mvn -pl store-embedded,segment-jieba,testkit -am
 * package}); run against this build, it would write today's analyzer.
 */
final class LegacyFixtureWriter {
  private LegacyFixtureWriter() {}

  static final String[] TEXTS = {
    "我喜欢江南style这首歌，上周在4s店买了一辆车，周末学习c++编程和机器学习的基础知识，收获很多。",
    "北京时间昨天晚上，国家统计局发布了最新的经济数据，显示消费市场持续回暖，就业形势总体稳定。",
  };

  public static void main(String[] args) throws IOException {
    ManualClock clock = new ManualClock();
    try (EmbeddedStore s =
        EmbeddedStore.builder(Path.of(args[0]))
            .clock(clock)
            .background(false)
            .snapshotOnClose(true)
            .open()) {
      Collection zh = s.create("zh", CollectionSettings.defaults());
      for (int i = 0; i < TEXTS.length; i++) {
        var o = zh.checkAndInsert(new Document("d" + i, zh.analyzer().analyze(TEXTS[i])));
        System.out.println("d" + i + " " + Long.toHexString(o.fingerprint()) + " " + o.status());
      }
      System.out.println(zh.analyzer().id());
    }
  }
}
