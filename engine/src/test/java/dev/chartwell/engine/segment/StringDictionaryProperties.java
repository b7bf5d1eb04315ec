package dev.chartwell.engine.segment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;

import dev.chartwell.testing.Gens;
import java.util.ArrayList;
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

  private static void compareAsStrings(TreeSet<String> left, TreeSet<String> right) {
    List<String> a = new ArrayList<>(left);
    List<String> b = new ArrayList<>(right);
    StringDictionary da = StringDictionary.of(a);
    StringDictionary db = StringDictionary.of(b);
    for (int i = 0; i < a.size(); i++) {
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
    return Gens.listOf(strings, 0, 12)
        .map(TreeSet::new)
        .describedAs(set -> escape(new ArrayList<>(set)));
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
