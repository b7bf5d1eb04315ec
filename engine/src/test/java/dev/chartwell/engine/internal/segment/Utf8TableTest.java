package dev.chartwell.engine.internal.segment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The table numbers byte strings as a map of their text would. */
class Utf8TableTest {

  /**
   * Strings that share their first bytes and differ in the last ones ({@code host-000} to {@code
   * host-999}, as a repeating column holds) must spread over a table's slots, which are the hash's
   * low bits. A hash whose low bits came from the first bytes alone put these 1,000 strings in 16
   * of 4,096 slots, and every look-up walked a long run of them.
   */
  @Test
  void stringsThatDifferInTheirLastBytesSpreadOverTheSlots() {
    for (String prefix : new String[] {"host-", "svc-", "customer ", "", "a-longer-prefix-"}) {
      Set<Integer> slots = new HashSet<>();
      for (int i = 0; i < 1000; i++) {
        byte[] value = String.format("%s%03d", prefix, i).getBytes(StandardCharsets.UTF_8);
        slots.add(
            Utf8Table.hash(value, 0, value.length, Utf8Table.pack(value, 0, value.length)) & 4095);
      }
      // at random, 1,000 values take about 885 of 4,096 slots
      assertTrue(slots.size() > 800, prefix + ": " + slots.size() + " slots of 4,096");
    }
  }

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
