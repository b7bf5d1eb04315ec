package dev.chartwell.server.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class NamesTest {
  @ParameterizedTest
  @ValueSource(
      chars = {'\u0000', '\t', '\n', '\r', '\u001b', '\u001f', '\u007f', '\u0080', '\u009f'})
  void everyControlCharacterIsRefusedWithItsCodeAndPosition(char c) {
    assertEquals(
        String.format(
            "tiles[2].name: must not contain control characters (found U+%04X at position 3)",
            (int) c),
        Names.name("tiles[2].name", "ab" + c + "cd"));
    assertEquals(
        String.format(
            "timestampValueExpression: must not contain control characters (found U+%04X at position 1)",
            (int) c),
        Names.expression("timestampValueExpression", c + "Ts"));
  }

  @Test
  void blankNamesAreRefusedButEmptyExpressionsAreTheCallersBusiness() {
    assertEquals("name: must not be blank", Names.name("name", ""));
    assertEquals("name: must not be blank", Names.name("name", "   "));
    assertNull(Names.expression("bodyExpression", ""));
  }

  @Test
  void theLengthLimitIsInclusive() {
    assertNull(Names.name("name", "x".repeat(256)));
    assertEquals("name: longer than 256 characters", Names.name("name", "x".repeat(257)));
    assertEquals(
        "timestampValueExpression: longer than 256 characters",
        Names.expression("timestampValueExpression", "T".repeat(300)));
    assertNull(Names.name("name", "x".repeat(50), 50));
    assertEquals("name: longer than 50 characters", Names.name("name", "x".repeat(51), 50));
  }

  @Test
  void unpairedSurrogatesAreRefusedPairedOnesAndOtherUnicodeAreFine() {
    assertNull(Names.name("name", "Caf\u00e9 \ud83d\ude00 \u65e5\u672c \u00a0nbsp"));
    assertEquals(
        "name: must be valid Unicode text (found the unpaired surrogate U+D800 at position 2)",
        Names.name("name", "a\ud800b"));
    assertEquals(
        "name: must be valid Unicode text (found the unpaired surrogate U+DE00 at position 1)",
        Names.name("name", "\ude00"));
    assertEquals(
        "name: must be valid Unicode text (found the unpaired surrogate U+D83D at position 2)",
        Names.name("name", "a\ud83d"));
  }
}
