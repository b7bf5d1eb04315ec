package dev.chartwell.engine.internal.agg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;

import dev.chartwell.engine.internal.segment.StringDictionary;
import dev.chartwell.testing.Gens;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.SourceDSL;

/** The k-way merge over segments' dictionaries counts what a set of strings counts. */
class DistinctStringsProperties {

  @Test
  void mergedCountEqualsSetSize() {
    qt().withExamples(1500)
        .forAll(segments(), SourceDSL.integers().between(0, 2))
        .checkAssert((segments, padding) -> countsASet(segments, padding * 2_000));
  }

  /**
   * @param segments the strings each segment's state saw
   * @param unseen how many more strings each dictionary holds, unseen: with thousands, the parts
   *     are sparse and listed rather than kept as bitsets
   */
  private static void countsASet(List<List<String>> segments, int unseen) {
    Set<String> expected = new HashSet<>();
    List<DistinctStrings> states = new ArrayList<>();
    for (List<String> seen : segments) {
      // The segment's dictionary holds more than what this state saw.
      TreeSet<String> dictionaryValues = new TreeSet<>(seen);
      String first = seen.isEmpty() ? "" : seen.get(0);
      if (!seen.isEmpty()
          && seen.stream().allMatch(v -> v.length() == first.length() && v.matches("[0-9a-f]+"))) {
        dictionaryValues.add("f".repeat(first.length())); // stays hex of one length
        // more hex of that length, all starting with "e" (none with one character)
        long room = first.length() > 1 ? 1L << (4 * first.length() - 4) : 0;
        for (int i = 0; i < unseen && i < room; i++) {
          dictionaryValues.add("e" + hex(i, first.length() - 1));
        }
      } else {
        dictionaryValues.add("zz-unseen");
        dictionaryValues.add("");
        for (int i = 0; i < unseen; i++) {
          dictionaryValues.add("unseen-" + i);
        }
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
              countsASet(segments, random.nextBoolean() ? 0 : 140_000);
            });
  }

  private static String hex(long value, int width) {
    String digits = Long.toHexString(value);
    return "0".repeat(Math.max(0, width - digits.length())) + digits;
  }

  /**
   * A part where more than one id in 32 was seen keeps its state's bitset (8 bytes per 64 ids)
   * rather than listing its ids (4 bytes each): a segment of 262,144 distinct trace ids in one
   * bucket holds 32 KiB, not a 1 MiB array, which G1 would place in regions of its own.
   */
  @Test
  void densePartsKeepTheirBitsetAndSparseOnesTheirIds() {
    List<String> values = new ArrayList<>();
    for (int i = 0; i < 4096; i++) {
      values.add(hex(i, 8));
    }
    StringDictionary dictionary = StringDictionary.of(values);
    long[] dense = everyNth(31);
    DistinctStrings kept = new DistinctStrings();
    kept.addIds(dictionary, dense);
    assertEquals(32 + 8 * 64, kept.retainedBytes());
    assertEquals(32 + 4 * 133, kept.countingWork());
    assertEquals(133, kept.count());

    long[] sparse = everyNth(33);
    DistinctStrings listed = new DistinctStrings();
    listed.addIds(dictionary, sparse);
    assertEquals(32 + 4 * 125, listed.retainedBytes());
    listed.addAll(kept);
    assertEquals(133 + 125 - 5, listed.count()); // ids that are multiples of 31 * 33 twice
  }

  /**
   * Counting parts of hundreds of thousands of strings merges them a block at a time: the count
   * allocates a few cursors' blocks, not arrays of the union's size (16 bytes per string), which
   * were 1 to 16 MiB and each started a collection. Skipped where the JVM does not count a thread's
   * allocations.
   */
  @Test
  void countingLargePartsAllocatesOnlyBlocks() {
    java.lang.management.ThreadMXBean threads =
        java.lang.management.ManagementFactory.getThreadMXBean();
    Assumptions.assumeTrue(
        threads instanceof com.sun.management.ThreadMXBean t
            && t.isThreadAllocatedMemorySupported()
            && t.isThreadAllocatedMemoryEnabled(),
        "this JVM does not count a thread's allocated bytes");
    com.sun.management.ThreadMXBean counter = (com.sun.management.ThreadMXBean) threads;
    int size = 1 << 18;
    List<String> values = new ArrayList<>(size);
    for (int i = 0; i < size; i++) {
      values.add(hex(i, 8));
    }
    StringDictionary dictionary = StringDictionary.of(values);
    DistinctStrings total = new DistinctStrings();
    for (int p = 0; p < 3; p++) { // every id, every other and every fourth: 3.5 * 2^17 strings
      long[] bits = new long[size / 64];
      for (int id = 0; id < size; id += 1 << p) {
        bits[id >>> 6] |= 1L << id;
      }
      DistinctStrings part = new DistinctStrings();
      part.addIds(dictionary, bits);
      total.addAll(part);
    }
    long thread = Thread.currentThread().getId();
    assertEquals(size, total.count()); // once, so that its code is loaded
    long before = counter.getThreadAllocatedBytes(thread);
    assertEquals(size, total.count());
    long allocated = counter.getThreadAllocatedBytes(thread) - before;
    assertTrue(allocated < 256 * 1024, allocated + " bytes allocated to count");
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

  /** A bitset of the ids 0, n, 2n, ... below 4,096. */
  private static long[] everyNth(int n) {
    long[] bits = new long[64];
    for (int id = 0; id < 4096; id += n) {
      bits[id >>> 6] |= 1L << id;
    }
    return bits;
  }
}
