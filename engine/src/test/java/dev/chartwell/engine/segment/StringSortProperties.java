package dev.chartwell.engine.segment;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;

import dev.chartwell.testing.Gens;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

/** The radix string sort orders as {@link String#compareTo} does, duplicates and all. */
class StringSortProperties {

  @Test
  void ordersAsCompareToDoes() {
    qt().withExamples(400).forAll(stringLists()).checkAssert(StringSortProperties::sortsLikeJava);
  }

  @Test
  void manyStringsWithSharedPrefixesAndDuplicates() {
    Random random = new Random(7);
    String[] prefixes = {
      "", "GET /api/v1/users/", "GET /api/v1/orders/", "a", "\u00e9t\u00e9 ", "x"
    };
    List<String> values = new ArrayList<>();
    for (int i = 0; i < 50_000; i++) {
      String p = prefixes[random.nextInt(prefixes.length)];
      values.add(random.nextInt(10) == 0 ? p : p + random.nextInt(20_000) + " in ms");
    }
    for (int i = 0; i < 20_000; i++) {
      values.add(Long.toHexString(random.nextLong()) + Long.toHexString(random.nextLong()));
    }
    values.add("\uffff\uffff");
    values.add("\ud83d\ude00 astral");
    sortsLikeJava(values);
  }

  @Test
  void nothingAndOne() {
    assertArrayEquals(new int[0], StringSort.order(new String[0], 0));
    assertArrayEquals(new int[] {0}, StringSort.order(new String[] {"a", "b"}, 1));
  }

  private static void sortsLikeJava(List<String> values) {
    String[] array = values.toArray(new String[0]);
    int[] order = StringSort.order(array, array.length);
    String[] expected = array.clone();
    Arrays.sort(expected);
    String[] actual = new String[array.length];
    boolean[] seen = new boolean[array.length];
    for (int i = 0; i < order.length; i++) {
      actual[i] = array[order[i]];
      assertEquals(false, seen[order[i]], "each position once");
      seen[order[i]] = true;
    }
    assertArrayEquals(expected, actual);
  }

  /**
   * Lists long enough to be radix sorted (more than a short group), with shared prefixes of every
   * length around a window, duplicates, the empty string, NUL, Latin-1, other BMP characters (which
   * take the wide digits) and surrogate pairs.
   */
  private static Gen<List<String>> stringLists() {
    Gen<String> chars =
        Gens.oneOf(
            Gens.strings("ab\u0000\u00fe\u00ff", 1, 1),
            Gens.strings('\u0100', '\u0101', 1, 1),
            Gens.strings('\ufffe', '\uffff', 1, 1),
            Gens.ints(0x10000, 0x10ffff).map(cp -> new String(Character.toChars(cp))));
    Gen<String> tail = Gens.listOf(chars, 0, 9).map(parts -> String.join("", parts));
    Gen<String> prefix = Gens.of("", "abcdefg", "abcdefgh", "abcdefghijklmnop", "ab\u00ff\u0100");
    Gen<String> value = prefix.zip(tail, String::concat);
    return Gens.listOf(value, 0, 120);
  }
}
