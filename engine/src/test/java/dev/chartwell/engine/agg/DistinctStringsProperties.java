package dev.chartwell.engine.agg;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.chartwell.engine.segment.StringDictionary;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** The k-way merge over segments' dictionaries counts what a set of strings counts. */
class DistinctStringsProperties {

  @Property(tries = 500)
  void mergedCountEqualsSetSize(@ForAll("segments") List<List<String>> segments) {
    Set<String> expected = new HashSet<>();
    List<DistinctStrings> states = new ArrayList<>();
    for (List<String> seen : segments) {
      // The segment's dictionary holds more than what this state saw.
      TreeSet<String> dictionaryValues = new TreeSet<>(seen);
      dictionaryValues.add("zz-unseen");
      dictionaryValues.add("");
      List<String> sorted = new ArrayList<>(dictionaryValues);
      StringDictionary dictionary = StringDictionary.of(sorted);
      long[] bits = new long[(sorted.size() + 63) >>> 6];
      for (String s : seen) {
        int id = dictionary.indexOf(s);
        bits[id >>> 6] |= 1L << id;
        expected.add(s);
      }
      DistinctStrings state = new DistinctStrings();
      state.addIds(dictionary, bits);
      states.add(state);
    }
    DistinctStrings total = new DistinctStrings();
    for (DistinctStrings s : states) {
      total.addAll(s);
    }
    assertEquals(expected.isEmpty(), total.isEmpty());
    assertEquals(expected.size(), total.count());
  }

  @Provide
  Arbitrary<List<List<String>>> segments() {
    Arbitrary<String> value =
        Arbitraries.oneOf(
            Arbitraries.strings().withCharRange('a', 'd').ofMaxLength(3),
            // longer than a prefix key, differing only after it
            Arbitraries.strings().withCharRange('a', 'c').ofMaxLength(3).map(s -> "trace-id-" + s),
            Arbitraries.strings().withChars('\ue000', '\uffff', 'x').ofMaxLength(2),
            Arbitraries.integers()
                .between(0x10000, 0x10010)
                .map(cp -> new String(Character.toChars(cp))));
    return value.list().ofMaxSize(80).list().ofMaxSize(9);
  }
}
