package dev.chartwell.engine.internal.segment;

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

/**
 * The radix sort of UTF-8 bytes orders as {@link String#compareTo} orders the text, duplicates and
 * all, and numbering the sorted items gives the distinct strings in that order.
 */
class Utf8SortProperties {

  @Test
  void ordersAsCompareToDoes() {
    qt().withExamples(400).forAll(stringLists()).checkAssert(Utf8SortProperties::sortsLikeJava);
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
    assertEquals(0, sorted(List.of(), 0).size());
    assertEquals(List.of("b"), sorted(List.of("b", "a"), 1));
  }

  @Test
  void aLongRunOfOneLongStringIsOneValue() {
    String value = "x".repeat(10_000);
    List<String> values = new ArrayList<>();
    for (int i = 0; i < 2_000; i++) {
      values.add(value);
    }
    values.add("y");
    sortsLikeJava(values);
  }

  /** Sorts the first {@code n} values and returns them in their sorted order. */
  private static List<String> sorted(List<String> values, int n) {
    Utf8Strings utf8 = Utf8Strings.of(values);
    int[] items = new int[values.size()];
    for (int i = 0; i < items.length; i++) {
      items[i] = i;
    }
    Utf8Sort.sortDistinct(utf8.data(), utf8.bounds(), items, n, new int[values.size()]);
    List<String> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(utf8.get(items[i]));
    }
    return out;
  }

  private static void sortsLikeJava(List<String> values) {
    Utf8Strings utf8 = Utf8Strings.of(values);
    int n = values.size();
    int[] items = new int[n];
    for (int i = 0; i < n; i++) {
      items[i] = i;
    }
    int[] ids = new int[n];
    Utf8Strings distinct = Utf8Sort.sortDistinct(utf8.data(), utf8.bounds(), items, n, ids);
    String[] expected = values.toArray(new String[0]);
    Arrays.sort(expected);
    String[] actual = new String[n];
    boolean[] seen = new boolean[n];
    for (int i = 0; i < n; i++) {
      actual[i] = values.get(items[i]);
      assertEquals(false, seen[items[i]], "each position once");
      seen[items[i]] = true;
    }
    assertArrayEquals(expected, actual);

    List<String> expectedDistinct = new ArrayList<>(new java.util.TreeSet<>(values));
    assertEquals(expectedDistinct.size(), distinct.size());
    for (int d = 0; d < distinct.size(); d++) {
      assertEquals(expectedDistinct.get(d), distinct.get(d));
    }
    for (int i = 0; i < n; i++) {
      assertEquals(values.get(i), distinct.get(ids[i]), "the id of item " + i);
    }
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
