package dev.chartwell.server.patterns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

class MaskerTest {
  @Test
  void masksEachKindOfVariablePart() {
    assertEquals("user <NUM> logged in from <IP>", Masker.mask("user 42 logged in from 10.0.0.7"));
    assertEquals("peer <IP> said <QUOTED>", Masker.mask("peer 10.1.2.3:8080 said \"hi there\""));
    assertEquals(
        "request <UUID> done", Masker.mask("request 123e4567-e89b-12d3-a456-426614174000 done"));
    assertEquals("span <HEX> and <HEX>", Masker.mask("span 5b8efff798038103 and 0xFF"));
    assertEquals("took <DURATION>, <DURATION>", Masker.mask("took 12ms, 1.5s"));
    assertEquals("heap <SIZE> of <SIZE>", Masker.mask("heap 512MB of 2GiB"));
    assertEquals(
        "mail <EMAIL> at <URL>", Masker.mask("mail a.b@example.com at https://x.io/a?b=1"));
    assertEquals("value <QUOTED> kept", Masker.mask("value 'it is' kept"));
    assertEquals("ratio <NUM> of <NUM>", Masker.mask("ratio 0.25 of 100"));
  }

  @Test
  void takesOnlyWholeParts() {
    assertEquals("db-<NUM> key=<NUM> (<NUM>)", Masker.mask("db-12 key=7 (3)"));
    assertEquals("checkout-v2 ab12 user_12 don't", Masker.mask("checkout-v2 ab12 user_12 don't"));
    assertEquals("deadbeef cafe", Masker.mask("deadbeef cafe"), "hex needs a digit and a letter");
    assertEquals("<NUM>", Masker.mask("12345678"), "digits alone are a number");
  }

  @Test
  void placeholdersAreKnown() {
    for (String p : Masker.PLACEHOLDERS) {
      assertEquals(true, Masker.isPlaceholder(p));
      assertEquals(p, Masker.mask(p));
    }
    assertEquals(false, Masker.isPlaceholder("<div>"));
  }

  /** Text from the characters that make masking hard: digits, hex, quotes, dots, brackets. */
  static Gen<String> awkwardText() {
    String alphabet = "0123456789abfxAF.:-_@/'\" <>msBKiGt\n";
    return lists()
        .of(integers().between(0, alphabet.length() - 1))
        .ofSizeBetween(0, 40)
        .map(
            l ->
                l.stream().map(i -> String.valueOf(alphabet.charAt(i))).reduce("", String::concat));
  }

  @Test
  void maskingIsIdempotent() {
    qt().withExamples(3000)
        .forAll(awkwardText())
        .check(s -> Masker.mask(Masker.mask(s)).equals(Masker.mask(s)));
  }
}
