// SPDX-License-Identifier: Apache-2.0
package org.neardup.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class StoreConfigTest {
  @Test
  void flag_readsTrueAndFalse_andTheDefaultWhenAbsent() {
    StoreConfig c = StoreConfig.of(Map.of("a", "true", "b", "false"));

    assertThat(c.flag("a", false)).isTrue();
    assertThat(c.flag("b", true)).isFalse();
    assertThat(c.flag("absent", true)).isTrue();
    assertThat(c.flag("absent", false)).isFalse();
  }

  @Test
  void flag_rejectsAnythingElse_namingTheOption() {
    for (String bad : new String[] {"TRUE", "yes", "1", "", " true"}) {
      StoreConfig c = StoreConfig.of(Map.of("group-commit", bad));
      assertThatThrownBy(() -> c.flag("group-commit", true))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("group-commit must be true or false, got '" + bad + "'");
    }
  }
}
