// SPDX-License-Identifier: Apache-2.0
package org.neardup.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The object walk both record readers share ({@link FlatObjectScanner}): the member list, the
 * whitespace around it and the integer id are read alike over chars ({@link FlatJson}) and bytes
 * ({@link SendRecord}).
 */
class FlatObjectScannerTest {
  private static final byte[] ID = SendRecord.name("id");
  private static final byte[] TEXT = SendRecord.name("text");

  private static String @org.jspecify.annotations.Nullable [] flat(String line) {
    return FlatJson.read(line, "id", "text");
  }

  private static SendRecord.@org.jspecify.annotations.Nullable Read send(String line) {
    return SendRecord.read(line.getBytes(StandardCharsets.UTF_8), ID, TEXT);
  }

  @Test
  void members_malformedList_bothReadersRefuse() {
    for (String line :
        List.of(
            "{}",
            " { } ",
            "{\"id\":1,\"text\":\"x\",}",
            "{,\"id\":1,\"text\":\"x\"}",
            "{\"id\":1,,\"text\":\"x\"}",
            "{\"id\":1 \"text\":\"x\"}",
            "{\"id\" 1,\"text\":\"x\"}",
            "{\"id\":1,\"text\":\"x\"",
            "{\"id\":1,\"text\":\"x\"}}",
            "{\"id\":1,\"text\":\"x\"}{}",
            "\"id\":1,\"text\":\"x\"}",
            "{\"id\":1,text:\"x\"}",
            "{\"id\":1,\"text\":\"x\",\"n\":}",
            "{\"id\":1,\"text\":\"x\",\"n\":tru}",
            "{\"id\":1,\"text\":\"x\",\"n\":nulll}",
            "{\"id\":1,\"text\":\"x\",\"n\":-}",
            "{\"id\":1,\"text\":\"x\",\"n\":1.e5}",
            "{\"id\":1}",
            "{\"text\":\"x\"}",
            "")) {
      assertNull(flat(line), line);
      assertNull(send(line), line);
    }
  }

  @Test
  void members_spacedAndOrdered_bothReadersTakeTheSameRecord() {
    for (String line :
        List.of(
            "{\"id\":7,\"text\":\"x\"}",
            " \t{ \"text\" :\r\n\"x\" , \"id\" : 7 }\t ",
            "{\"n\":null,\"id\":7,\"b\":false,\"text\":\"x\",\"t\":true,\"f\":-1.5e+3}",
            "{\"id\":-7,\"text\":\"x\"}",
            "{\"id\":999999999999999999,\"text\":\"x\"}")) {
      String[] fromChars = flat(line);
      SendRecord.Read fromBytes = send(line);
      assertNotNull(fromChars, line);
      assertNotNull(fromBytes, line);
      assertEquals(fromChars[0], fromBytes.idJson(), line);
    }
  }

  @Test
  void integerId_beyondEighteenDigitsOrNotAnInteger_bothReadersRefuse() {
    for (String id : List.of("1234567890123456789", "1.0", "1e3", "1E3", "01", "-", "+1", "--1")) {
      String line = "{\"id\":" + id + ",\"text\":\"x\"}";
      assertNull(flat(line), line);
      assertNull(send(line), line);
    }
  }
}
