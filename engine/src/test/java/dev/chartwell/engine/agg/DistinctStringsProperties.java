package dev.chartwell.engine.agg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;

import dev.chartwell.engine.segment.StringDictionary;
import dev.chartwell.testing.Gens;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

/** The k-way merge over segments' dictionaries counts what a set of strings counts. */
class DistinctStringsProperties {

  @Test
  void mergedCountEqualsSetSize() {
    qt().withExamples(500).forAll(segments()).checkAssert(DistinctStringsProperties::countsASet);
  }

  private static void countsASet(List<List<String>> segments) {
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

  static Gen<List<List<String>>> segments() {
    Gen<String> value =
        Gens.oneOf(
            Gens.strings('a', 'd', 0, 3),
            // longer than a prefix key, differing only after it
            Gens.strings('a', 'c', 0, 3).map(s -> "trace-id-" + s),
            Gens.strings("\ue000\uffffx", 0, 2),
            Gens.ints(0x10000, 0x10010).map(cp -> new String(Character.toChars(cp))));
    return Gens.listOf(Gens.listOf(value, 0, 80), 0, 9);
  }
}
