package dev.chartwell.engine.segment;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Dictionaries find their entries and compare them (whole, and by prefix key) in {@link
 * String#compareTo} order.
 */
class StringDictionaryProperties {

  @Property(tries = 500)
  void bytesCompareAsStringsDo(
      @ForAll("stringSets") TreeSet<String> left, @ForAll("stringSets") TreeSet<String> right) {
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
  @Provide
  Arbitrary<TreeSet<String>> stringSets() {
    Arbitrary<String> chars =
        Arbitraries.oneOf(
            Arbitraries.strings().withCharRange('a', 'c').ofLength(1),
            Arbitraries.strings().withCharRange('\u00e0', '\u00e2').ofLength(1),
            Arbitraries.strings().withCharRange('\ud7fe', '\ud7ff').ofLength(1),
            Arbitraries.strings().withCharRange('\ue000', '\ue001').ofLength(1),
            Arbitraries.strings().withCharRange('\ufffd', '\uffff').ofLength(1),
            Arbitraries.integers()
                .between(0x10000, 0x10ffff)
                .map(cp -> new String(Character.toChars(cp))));
    Arbitrary<String> strings = chars.list().ofMaxSize(11).map(parts -> String.join("", parts));
    return strings.set().ofMaxSize(12).map(TreeSet::new);
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
