package dev.chartwell.engine.internal.segment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.quicktheories.QuickTheory.qt;

import dev.chartwell.testing.Gens;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

/**
 * Sorting hex ids packed gives the dictionary and the ids that sorting them as text does ({@link
 * Utf8Sort}, then {@link StringDictionary#of}), and gives up exactly where it must.
 */
class HexSortProperties {

  @Test
  void agreesWithTheTextSort() {
    qt().withExamples(300).forAll(idLists()).checkAssert(HexSortProperties::agrees);
  }

  @Test
  void traceIdsWithRepeatsAndSharedLeadingDigits() {
    Random random = new Random(5);
    List<String> values = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      String id = hex(random, 32);
      values.add(id);
      if (i % 7 == 0) { // a trace's other events
        for (int k = random.nextInt(50); k > 0; k--) {
          values.add(id);
        }
      }
      if (i % 11 == 0) { // ties on the leading 16 digits or more, told apart after them
        String prefix = id.substring(0, 16 + random.nextInt(16));
        values.add(prefix + hex(random, 32 - prefix.length()));
      }
    }
    java.util.Collections.shuffle(values, random);
    agrees(values);
  }

  @Test
  void givesUpOnWhatIsNotOneWidthOfLowercaseHexOf16DigitsOrMore() {
    Random random = new Random(9);
    assertNull(hexSort(List.of(hex(random, 14), hex(random, 14)), new int[2]), "short");
    assertNull(hexSort(List.of(hex(random, 17), hex(random, 17)), new int[2]), "odd");
    assertNull(hexSort(List.of(hex(random, 32), hex(random, 30)), new int[2]), "two widths");
    assertNull(hexSort(List.of(hex(random, 32), "ABCDEF" + hex(random, 26)), new int[2]), "upper");
    assertNull(hexSort(List.of(hex(random, 32), "g" + hex(random, 31)), new int[2]), "not hex");
    assertNotNull(hexSort(List.of(hex(random, 16)), new int[1]), "one id of 16 digits");
  }

  @Test
  void sequentialIdsTieOnTheirLeadingDigitsAndAreOrderedWhole() {
    List<String> values = new ArrayList<>();
    for (int i = 0; i < 5000; i++) {
      values.add(String.format("%032x", (i * 7919L) % 5000)); // all tie on their leading digits
    }
    agrees(values);
    agrees(values.subList(0, 17)); // just past the insertion sort
    List<String> repeated = new ArrayList<>();
    for (int i = 0; i < 5000; i++) {
      repeated.add(values.get(i % 3 == 0 ? 7 : 3)); // two ids, many times each, tied
    }
    agrees(repeated);
  }

  /**
   * The packed sort gives a dictionary of the distinct values in order, each item's id names its
   * value, and both are what the text sort gives.
   */
  private static void agrees(List<String> values) {
    int[] ids = new int[values.size()];
    StringDictionary hex = hexSort(values, ids);
    assertNotNull(hex);
    List<String> expected = new ArrayList<>(new TreeSet<>(values));
    assertEquals(expected.size(), hex.size());
    for (int d = 0; d < expected.size(); d++) {
      assertEquals(expected.get(d), hex.get(d));
      assertEquals(d, hex.indexOf(expected.get(d)));
    }
    for (int i = 0; i < values.size(); i++) {
      assertEquals(values.get(i), hex.get(ids[i]), "the id of item " + i);
    }
    Utf8Strings utf8 = Utf8Strings.of(values);
    int[] textIds = new int[values.size()];
    StringDictionary text =
        StringDictionary.of(
            Utf8Sort.sortDistinct(
                utf8.data(), utf8.bounds(), items(values.size()), values.size(), textIds));
    assertEquals(text.bytes(), hex.bytes(), "the same layout and size");
    for (int i = 0; i < values.size(); i++) {
      assertEquals(textIds[i], ids[i]);
    }
  }

  private static StringDictionary hexSort(List<String> values, int[] ids) {
    Utf8Strings utf8 = Utf8Strings.of(values);
    return HexSort.sortDistinct(
        utf8.data(), utf8.bounds(), items(values.size()), values.size(), ids);
  }

  private static int[] items(int n) {
    int[] items = new int[n];
    for (int i = 0; i < n; i++) {
      items[i] = i;
    }
    return items;
  }

  private static String hex(Random random, int digits) {
    StringBuilder b = new StringBuilder();
    while (b.length() < digits) {
      b.append(Character.forDigit(random.nextInt(16), 16));
    }
    return b.toString();
  }

  /**
   * Lists of ids of one width (16, 18 or 32 digits): random ones, repeats, and ones sharing their
   * first 12 to 20 digits with another (ties on the leading bits that the whole value tells apart).
   */
  private static Gen<List<String>> idLists() {
    Gen<Integer> widths = Gens.of(16, 18, 32);
    return widths.flatMap(
        width ->
            Gens.listOf(Gens.longs(Long.MIN_VALUE, Long.MAX_VALUE), 1, 150)
                .map(
                    seeds -> {
                      List<String> out = new ArrayList<>();
                      Random random = new Random(seeds.get(0));
                      for (long seed : seeds) {
                        int kind = (int) Math.floorMod(seed, 4);
                        if (kind == 0 || out.isEmpty()) {
                          out.add(hex(random, width));
                        } else if (kind == 1) {
                          out.add(out.get(random.nextInt(out.size())));
                        } else {
                          String other = out.get(random.nextInt(out.size()));
                          int keep = Math.min(width - 1, 12 + random.nextInt(9));
                          out.add(other.substring(0, keep) + hex(random, width - keep));
                        }
                      }
                      return out;
                    }));
  }
}
