// SPDX-License-Identifier: Apache-2.0
package org.neardup.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class HugePagesTest {
  private static final String SHMEM = "/sys/kernel/mm/transparent_hugepage/shmem_enabled";
  private static final String ANON = "/sys/kernel/mm/transparent_hugepage/enabled";

  private static String shmem(String selected) {
    return "always within_size advise never deny force\n"
        .replace(selected + " ", "[" + selected + "] ")
        .replace(" " + selected + "\n", " [" + selected + "]\n");
  }

  private static String anon(String selected) {
    return ("always madvise never\n")
        .replace(selected + " ", "[" + selected + "] ")
        .replace(" " + selected + "\n", " [" + selected + "]\n");
  }

  @Test
  void selected_isTheBracketedWord() {
    assertThat(HugePages.selected("always within_size [advise] never deny force\n"))
        .isEqualTo("advise");
    assertThat(HugePages.selected("[always] madvise never")).isEqualTo("always");
    assertThat(HugePages.selected(shmem("force"))).isEqualTo("force");
    assertThat(HugePages.selected(anon("never"))).isEqualTo("never");
    assertThat(HugePages.selected(" madvise\n")).isEqualTo("madvise");
  }

  @Test
  void zgc_needsShmemAdviseAndTheFlag() {
    assertThat(HugePages.decide(true, true, true, SHMEM, shmem("advise")).on()).isTrue();
    assertThat(HugePages.decide(true, true, true, SHMEM, shmem("within_size")).on()).isTrue();
    HugePages never = HugePages.decide(true, true, true, SHMEM, shmem("never"));
    assertThat(never.on()).isFalse();
    assertThat(never.explanation())
        .contains(SHMEM + " is 'never'")
        .contains("echo advise | sudo tee " + SHMEM);
    assertThat(HugePages.decide(true, true, true, SHMEM, shmem("deny")).on()).isFalse();
  }

  @Test
  void zgc_withoutTheFlag_onlyWhenTheKernelForcesThem() {
    HugePages advise = HugePages.decide(true, false, false, SHMEM, shmem("advise"));
    assertThat(advise.on()).isFalse();
    assertThat(advise.explanation()).contains("-XX:+UseTransparentHugePages");
    assertThat(HugePages.decide(true, false, false, SHMEM, shmem("always")).on()).isTrue();
    assertThat(HugePages.decide(true, false, false, SHMEM, shmem("force")).on()).isTrue();
  }

  @Test
  void otherCollectors_readTheAnonymousSetting() {
    assertThat(HugePages.decide(false, true, true, ANON, anon("madvise")).on()).isTrue();
    assertThat(HugePages.decide(false, false, false, ANON, anon("madvise")).on()).isFalse();
    assertThat(HugePages.decide(false, false, false, ANON, anon("always")).on()).isTrue();
    HugePages never = HugePages.decide(false, true, true, ANON, anon("never"));
    assertThat(never.on()).isFalse();
    assertThat(never.explanation()).contains("echo madvise | sudo tee " + ANON);
  }

  @Test
  void explicitLargePages_areTakenAsOn() {
    assertThat(HugePages.decide(true, false, true, SHMEM, shmem("never")).on()).isTrue();
  }

  @Test
  void noSysfs_isOffAndSaysSo() {
    HugePages none = HugePages.decide(true, true, true, SHMEM, null);
    assertThat(none.on()).isFalse();
    assertThat(none.explanation()).contains("no " + SHMEM);
  }

  @Test
  void flag_lastOnTheCommandLineWins() {
    assertThat(HugePages.flag(List.of("-Xmx1g", "-XX:+UseLargePages"), "UseLargePages")).isTrue();
    assertThat(
            HugePages.flag(
                List.of("-XX:+UseTransparentHugePages", "-XX:-UseTransparentHugePages"),
                "UseTransparentHugePages"))
        .isFalse();
    assertThat(HugePages.flag(List.of("-XX:+UseTransparentHugePagesX"), "UseTransparentHugePages"))
        .isFalse();
    assertThat(HugePages.flag(List.of(), "UseLargePages")).isFalse();
  }

  @Test
  void thisJvm_answersWithoutThrowing() {
    HugePages mine = HugePages.ofThisJvm();
    assertThat(mine.explanation()).isNotBlank();
  }
}
