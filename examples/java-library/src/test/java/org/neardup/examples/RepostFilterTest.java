// SPDX-License-Identifier: Apache-2.0
package org.neardup.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class RepostFilterTest {
  private static final String NEWS =
      "The city council approved the new budget on Tuesday after a long debate about schools,"
          + " roads and the public library, and the mayor said the plan will be reviewed in spring.";

  @Test
  void offer_repostWithAFooter_namesTheOriginal() {
    RepostFilter f = new RepostFilter();
    assertEquals(0, f.offer(1, NEWS));
    assertEquals(
        0, f.offer(2, "A bakery on Elm Street sells rye bread every morning and croissants."));
    assertEquals(1, f.offer(3, NEWS + " (Reposted from the Evening Chronicle)"));
  }
}
