package dev.chartwell.engine.internal.agg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;

import dev.chartwell.engine.internal.segment.StringDictionary;
import dev.chartwell.testing.Gens;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.SourceDSL;

/** The k-way merge over segments' dictionaries counts what a set of strings counts. */
class DistinctStringsProperties {

  @Test
  void mergedCountEqualsSetSize() {
    qt().withExamples(1500).forAll(segments()).checkAssert(DistinctStringsProperties::countsASet);
  }

  private static void countsASet(List<List<String>> segments) {
    Set<String> expected = new HashSet<>();
    List<DistinctStrings> states = new ArrayList<>();
    for (List<String> seen : segments) {
      // The segment's dictionary holds more than what this state saw.
      TreeSet<String> dictionaryValues = new TreeSet<>(seen);
      String first = seen.isEmpty() ? "" : seen.get(0);
      if (!seen.isEmpty()
          && seen.stream().allMatch(v -> v.length() == first.length() && v.matches("[0-9a-f]+"))) {
        dictionaryValues.add("f".repeat(first.length())); // stays hex of one length
      } else {
        dictionaryValues.add("zz-unseen");
        dictionaryValues.add("");
      }
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
    // Runs capped small, so that runs and parts meet in the heap (or only parts, at 1).
    assertEquals(expected.size(), total.count(1));
    assertEquals(expected.size(), total.count(64));
  }

  /**
   * Parts of thousands of ids, longer than the blocks in which prefix keys are computed, and up to
   * six of them, so that runs merged from parts merge again with parts.
   */
  @Test
  void largePartsCountAsASet() {
    qt().withExamples(60)
        .forAll(SourceDSL.longs().all(), SourceDSL.integers().between(2, 6))
        .checkAssert(
            (seed, count) -> {
              Random random = new Random(seed);
              List<String> pool = new ArrayList<>();
              for (int i = 0; i < 6_000; i++) {
                pool.add(String.format("%08x%08x", random.nextInt(3), random.nextInt()));
              }
              List<List<String>> segments = new ArrayList<>();
              for (int p = 0; p < count; p++) {
                List<String> seen = new ArrayList<>();
                for (int i = 0, n = 1 + random.nextInt(4_000); i < n; i++) {
                  seen.add(pool.get(random.nextInt(pool.size())));
                }
                segments.add(seen);
              }
              countsASet(segments);
            });
  }

  static Gen<List<List<String>>> segments() {
    Gen<String> value =
        Gens.oneOf(
            Gens.strings('a', 'd', 0, 3),
            // longer than a prefix key, differing only after it
            Gens.strings('a', 'c', 0, 3).map(s -> "trace-id-" + s),
            Gens.strings("\ue000\uffffx", 0, 2),
            Gens.ints(0x10000, 0x10010).map(cp -> new String(Character.toChars(cp))));
    // Hex of one length, as trace ids are (stored as packed nibbles), sharing their first 8
    // characters often, so that prefix keys tie and the bytes after them decide.
    Gen<String> hex =
        Gens.strings("0a", 8, 8).flatMap(head -> Gens.strings("09af", 2, 2).map(t -> head + t));
    Gen<List<String>> segment = Gens.oneOf(Gens.listOf(value, 0, 80), Gens.listOf(hex, 0, 80));
    return Gens.listOf(segment, 0, 9);
  }
}
