package dev.chartwell.engine.segment;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The table numbers byte strings as a map of their text would. */
class Utf8TableTest {

  @Test
  void numbersEachStringOnceThroughManyRehashes() {
    Random random = new Random(11);
    String chars = "aAbBzZ09é";
    Utf8Table table = new Utf8Table(16);
    Map<String, Integer> expected = new HashMap<>();
    for (int i = 0; i < 200_000; i++) {
      StringBuilder value = new StringBuilder();
      int length = random.nextInt(new int[] {3, 12, 40}[random.nextInt(3)]);
      if (length > 16) { // long strings repeat too: a prefix of ten, then one of nine endings
        value.append(Integer.toString(random.nextInt(10)).repeat(length - 1));
        length = 1;
      }
      for (int j = 0; j < length; j++) {
        value.append(chars.charAt(random.nextInt(chars.length())));
      }
      byte[] around = ("x-" + value + " ").getBytes(StandardCharsets.UTF_8);
      int id = table.id(around, 2, around.length - 1);
      assertEquals(expected.computeIfAbsent(value.toString(), t -> expected.size()), id);
    }
    assertEquals(expected.size(), table.size());
    expected.forEach(
        (value, id) ->
            assertEquals(
                value,
                new String(
                    table.text(),
                    table.bounds()[id],
                    table.bounds()[id + 1] - table.bounds()[id],
                    StandardCharsets.UTF_8)));
  }
}
