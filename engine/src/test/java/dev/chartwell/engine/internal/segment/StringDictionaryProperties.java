package dev.chartwell.engine.internal.segment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;

import dev.chartwell.testing.Gens;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

/**
 * Dictionaries find their entries and compare them (whole, and by prefix key) in {@link
 * String#compareTo} order.
 */
class StringDictionaryProperties {

  @Test
  void bytesCompareAsStringsDo() {
    qt().withExamples(500)
        .forAll(stringSets(), stringSets())
        .checkAssert(StringDictionaryProperties::compareAsStrings);
  }

  @Test
  void frontCodedEntriesCompareAsStringsDo() {
    qt().withExamples(500)
        .forAll(stringSets(), stringSets(), Gens.ints(0, 8))
        .checkAssert((a, b, which) -> compareAsStrings(a, b, which % 3, which / 3));
  }

  /** Thousands of entries over several compressed pages, against an uncompressed dictionary. */
  @Test
  void compressedPagesReadAsTheirEntries() {
    java.util.Random random = new java.util.Random(9);
    TreeSet<String> left = new TreeSet<>();
    TreeSet<String> right = new TreeSet<>();
    String[] templates = {
      "GET /api/v1/users/", "cache miss for key session:", "\u00e9t\u00e9 ", ""
    };
    while (left.size() < 5_000) {
      String v = templates[random.nextInt(templates.length)] + random.nextInt(1_000_000);
      left.add(v);
      if (random.nextInt(20) == 0) {
        right.add(v);
      }
      if (random.nextInt(20) == 0) {
        right.add(v + "x");
      }
    }
    right.add("");
    right.add("\uffff");
    compareAsStrings(left, right, 2, 0);
    compareAsStrings(left, right, 2, 2);
    StringDictionary paged = dictionary(new ArrayList<>(left), 2);
    assertEquals(StringDictionary.Layout.FRONT_CODED_PAGES, paged.layout());
    assertTrue(paged.bytes() * 2 < StringDictionary.frontCoded(new ArrayList<>(left)).bytes());
  }

  private static void compareAsStrings(TreeSet<String> left, TreeSet<String> right) {
    compareAsStrings(left, right, 0, 0);
  }

  /** Layout 0: the smallest; 1: front-coded; 2: front-coded, compressed pages. */
  private static StringDictionary dictionary(List<String> values, int layout) {
    return switch (layout) {
      case 0 -> StringDictionary.of(values);
      case 1 -> StringDictionary.frontCoded(values);
      default -> StringDictionary.frontCoded(values).paged();
    };
  }

  private static void compareAsStrings(
      TreeSet<String> left, TreeSet<String> right, int layoutLeft, int layoutRight) {
    List<String> a = new ArrayList<>(left);
    List<String> b = new ArrayList<>(right);
    StringDictionary da = dictionary(a, layoutLeft);
    StringDictionary db = dictionary(b, layoutRight);
    List<String> iterated = new ArrayList<>();
    da.iterator().forEachRemaining(iterated::add);
    assertEquals(a, iterated);
    for (String v : b) {
      assertEquals(
          Collections.binarySearch(a, v), da.indexOf(v), () -> "'" + v + "' in " + escape(a));
    }
    for (int i = 0; i < a.size(); i++) {
      assertEquals(a.get(i), da.get(i));
      assertEquals(i, da.indexOf(a.get(i)));
      for (int j = 0; j < b.size(); j++) {
        assertEquals(
            Integer.signum(a.get(i).compareTo(b.get(j))),
            Integer.signum(da.compare(i, db, j)),
            () -> "'" + escape(a) + "' vs '" + escape(b) + "'");
        long pa = da.prefix(i);
        long pb = db.prefix(j);
        if (pa != pb) {
          assertEquals(
              Integer.signum(da.compare(i, db, j)),
              Integer.signum(Long.compareUnsigned(pa, pb)),
              "prefix keys order as the entries do");
        }
      }
    }
  }

  /** Every layout gives back its entries as UTF-8, in id order. */
  @Test
  void entriesReadBackAsUtf8InEveryLayout() {
    qt().withExamples(300)
        .forAll(stringSets(), Gens.ints(0, 2))
        .checkAssert((set, which) -> assertUtf8Entries(dictionary(new ArrayList<>(set), which)));
    java.util.Random random = new java.util.Random(3);
    TreeSet<String> bodies = new TreeSet<>();
    while (bodies.size() < 5_000) {
      bodies.add("cache miss for key session:" + random.nextInt(1_000_000) + " \u00e9");
    }
    for (int which = 0; which < 3; which++) {
      assertUtf8Entries(dictionary(new ArrayList<>(bodies), which));
    }
  }

  private static void assertUtf8Entries(StringDictionary d) {
    Utf8Strings utf8 = DictionaryEntries.utf8(d);
    assertEquals(d.size(), utf8.size());
    for (int id = 0; id < d.size(); id++) {
      assertEquals(d.get(id), utf8.get(id), "entry " + id + " of a " + d.layout() + " dictionary");
    }
  }

  @Test
  void theLayoutFollowsTheContent() {
    StringDictionary hex = StringDictionary.of(List.of("00ff", "0a1b", "ffff"));
    assertEquals(StringDictionary.Layout.HEX, hex.layout());
    assertEquals(6, hex.data().capacity());
    assertEquals("0a1b", hex.get(1));
    assertEquals(
        StringDictionary.Layout.FIXED, StringDictionary.of(List.of("0A1B", "ffff")).layout());
    assertEquals(StringDictionary.Layout.FIXED, StringDictionary.of(List.of("abc")).layout());
    assertEquals(StringDictionary.Layout.PLAIN, StringDictionary.of(List.of("a", "bc")).layout());
    assertEquals(StringDictionary.Layout.PLAIN, StringDictionary.of(List.of()).layout());
    assertEquals(StringDictionary.Layout.FIXED, StringDictionary.of(List.of("")).layout());
  }

  @Test
  void largeDictionariesOfSharedPrefixesAreFrontCoded() {
    TreeSet<String> bodies = new TreeSet<>();
    TreeSet<String> random = new TreeSet<>();
    java.util.SplittableRandom r = new java.util.SplittableRandom(7);
    while (bodies.size() < 5_000) {
      bodies.add("GET /api/v1/users/" + r.nextInt(1_000_000) + " 200 in " + r.nextInt(999) + "ms");
      random.add(Long.toString(r.nextLong(), 36) + Long.toString(r.nextLong(), 36));
    }
    StringDictionary front = StringDictionary.of(new ArrayList<>(bodies));
    assertEquals(StringDictionary.Layout.FRONT_CODED, front.layout());
    long plainBytes = bodies.stream().mapToLong(String::length).sum();
    assertTrue(3 * front.bytes() < 2 * plainBytes, front.bytes() + " of " + plainBytes);
    List<String> sorted = new ArrayList<>(bodies);
    for (int i = 0; i < sorted.size(); i += 7) {
      assertEquals(sorted.get(i), front.get(i));
      assertEquals(i, front.indexOf(sorted.get(i)));
      assertEquals(-(i + 2), front.indexOf(sorted.get(i) + " "), "just after entry " + i);
    }
    assertEquals(
        StringDictionary.Layout.PLAIN, StringDictionary.of(new ArrayList<>(random)).layout());
    List<String> small = new ArrayList<>(bodies).subList(0, 100);
    assertEquals(StringDictionary.Layout.PLAIN, StringDictionary.of(small).layout());
  }

  /**
   * Strings (some longer than a prefix key) mixing ASCII, two- and three-byte characters (including
   * U+E000-U+FFFF, which UTF-16 sorts after supplementary characters) and supplementary characters.
   */
  static Gen<TreeSet<String>> stringSets() {
    Gen<String> chars =
        Gens.oneOf(
            Gens.strings('a', 'c', 1, 1),
            Gens.strings('\u00e0', '\u00e2', 1, 1),
            Gens.strings('\ud7fe', '\ud7ff', 1, 1),
            Gens.strings('\ue000', '\ue001', 1, 1),
            Gens.strings('\ufffd', '\uffff', 1, 1),
            Gens.ints(0x10000, 0x10ffff).map(cp -> new String(Character.toChars(cp))));
    Gen<String> strings = Gens.listOf(chars, 0, 11).map(parts -> String.join("", parts));
    // Sets of lowercase hex ids of one length take the hex layout, of other equal-length strings
    // the fixed one; the hex digits and their neighbours ('/', ':', '`', 'g') test the order.
    Gen<String> hex4 = Gens.strings("0123456789abcdef", 4, 4);
    Gen<String> hex18 = Gens.strings("0123456789abcdef", 18, 18);
    Gen<String> nearHex = Gens.strings("09af/:`gA", 0, 6);
    // Eighteen digits are read as two words of eight and a last pair: ids of which one has a
    // neighbour of a digit, an upper-case one, DEL or a two-byte character in place of a digit.
    Gen<List<String>> nearHex18 =
        Gens.listOf(hex18, 1, 12)
            .zip(
                Gens.ints(0, 17),
                Gens.strings("/:`g@AF\u007f\u00e9", 1, 1),
                (ids, at, other) -> {
                  List<String> out = new ArrayList<>(ids);
                  String first = out.get(0);
                  out.set(0, first.substring(0, at) + other + first.substring(at + 1));
                  return out;
                });
    Gen<TreeSet<String>> sets =
        Gens.oneOf(
                Gens.listOf(strings, 0, 12),
                Gens.listOf(hex4, 1, 12),
                Gens.listOf(hex18, 1, 12),
                Gens.listOf(Gens.oneOf(hex4, nearHex), 0, 12),
                nearHex18,
                Gens.listOf(Gens.strings("ab\u00e9", 3, 3), 1, 8))
            .map(TreeSet::new);
    return sets.describedAs(set -> escape(new ArrayList<>(set)));
  }

  private static String escape(List<String> strings) {
    StringBuilder out = new StringBuilder();
    for (String s : strings) {
      s.codePoints().forEach(cp -> out.append(String.format("U+%04X ", cp)));
      out.append("| ");
    }
    return out.toString();
  }
}
