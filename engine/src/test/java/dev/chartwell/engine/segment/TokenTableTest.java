package dev.chartwell.engine.segment;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The token table numbers tokens as a map of their lower-cased text would. */
class TokenTableTest {

  @Test
  void numbersEachLowerCasedTokenOnceThroughManyRehashes() {
    Random random = new Random(11);
    String chars = "aAbBzZ09";
    TokenTable table = new TokenTable();
    Map<String, Integer> expected = new HashMap<>();
    for (int i = 0; i < 200_000; i++) {
      StringBuilder token = new StringBuilder();
      int length = 1 + random.nextInt(random.nextBoolean() ? 3 : 12);
      for (int j = 0; j < length; j++) {
        token.append(chars.charAt(random.nextInt(chars.length())));
      }
      String value = "x-" + token + " ";
      String lower = token.toString().toLowerCase(Locale.ROOT);
      int id = table.id(value, 2, 2 + token.length());
      assertEquals(expected.computeIfAbsent(lower, t -> expected.size()), id, lower);
    }
    assertEquals(expected.size(), table.size());
    expected.forEach((token, id) -> assertEquals(token, table.token(id)));
  }
}
