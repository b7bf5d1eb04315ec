package dev.chartwell.engine.internal.segment;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;

import dev.chartwell.testing.Gens;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import org.roaringbitmap.buffer.MutableRoaringBitmap;

/**
 * Bitmaps of every size, in both stored forms, read back exactly as written. An example holds up to
 * 40 bitmaps of up to 70,000 rows, so the test keeps its rows unboxed and bounds shrinking: the
 * test JVM once ran out of heap here (in CI and in one of about 25 local runs, cause not pinned
 * down), and a failure must report itself rather than shrink without end.
 */
class BitmapListProperties {

  @Test
  void everyBitmapReadsBackEqual() {
    qt().withExamples(300)
        .withShrinkCycles(50)
        .forAll(bitmapLists())
        .checkAssert(BitmapListProperties::readsBack);
  }

  private static void readsBack(List<MutableRoaringBitmap> bitmaps) {
    List<MutableRoaringBitmap> expected = new ArrayList<>();
    for (MutableRoaringBitmap b : bitmaps) {
      expected.add(b.clone());
    }
    BitmapList list = BitmapList.of(bitmaps);
    assertEquals(expected.size(), list.size());
    for (int i = 0; i < expected.size(); i++) {
      assertEquals(expected.get(i), list.get(i).toMutableRoaringBitmap(), "bitmap " + i);
    }
    // Read back grouped, every form (single row, short, Roaring) gives its rows in order.
    GroupedRows grouped = list.grouped();
    assertEquals(expected.size() + 1, grouped.starts().length);
    for (int i = 0; i < expected.size(); i++) {
      assertArrayEquals(
          expected.get(i).toArray(),
          java.util.Arrays.copyOfRange(
              grouped.rows(), grouped.starts()[i], grouped.starts()[i + 1]),
          "grouped bitmap " + i);
    }
  }

  @Test
  void groupedRowsReadAsTheirBitmapsWithRepeatsStoredOnce() {
    qt().withExamples(300)
        .withShrinkCycles(50)
        .forAll(bitmapLists())
        .checkAssert(
            bitmaps -> {
              int[] starts = new int[bitmaps.size() + 1];
              for (int i = 0; i < bitmaps.size(); i++) {
                starts[i + 1] = starts[i] + bitmaps.get(i).getCardinality();
              }
              int[] rows = new int[starts[bitmaps.size()]];
              for (int i = 0; i < bitmaps.size(); i++) {
                int[] own = bitmaps.get(i).toArray();
                System.arraycopy(own, 0, rows, starts[i], own.length);
              }
              BitmapList grouped = BitmapList.of(new GroupedRows(starts, rows));
              BitmapList expected = BitmapList.of(bitmaps);
              assertEquals(expected.size(), grouped.size());
              java.util.Set<MutableRoaringBitmap> distinctLarge = new java.util.HashSet<>();
              long largeBytes = 0;
              for (int i = 0; i < bitmaps.size(); i++) {
                assertEquals(bitmaps.get(i), grouped.get(i).toMutableRoaringBitmap(), "entry " + i);
                if (bitmaps.get(i).getCardinality() > BitmapList.MAX_SHORT
                    && distinctLarge.add(bitmaps.get(i))) {
                  MutableRoaringBitmap b = bitmaps.get(i).clone();
                  b.runOptimize();
                  largeBytes += b.serializedSizeInBytes();
                }
              }
              long shortBytes = 0;
              for (MutableRoaringBitmap b : bitmaps) {
                int c = b.getCardinality();
                shortBytes += c != 1 && c <= BitmapList.MAX_SHORT ? 2 + 4L * c : 0;
              }
              assertEquals(largeBytes + shortBytes, grouped.data().capacity(), "repeats once");
            });
  }

  /**
   * Ascending rows built into containers whole give the bitmap {@code addN} gives, with the same
   * bytes once run-optimized: chunks of 65,536 rows that are empty, sparse, just under, at and just
   * over the 4,096 values an array container holds, dense, or one run, at any chunk number.
   */
  @Test
  void ascendingRowsBuildTheBitmapAddNBuilds() {
    qt().withExamples(300)
        .forAll(Gens.ints(0, Integer.MAX_VALUE), Gens.ints(1, 6))
        .checkAssert(
            (seed, chunks) -> {
              java.util.Random random = new java.util.Random(seed);
              int[] counts = {0, 1, 50, 4095, 4096, 4097, 30_000, 65_536};
              int firstChunk = random.nextInt(3) == 0 ? 32_760 : random.nextInt(8);
              int[] rows = new int[chunks * 65_536];
              int n = 0;
              for (int c = 0; c < chunks; c++) {
                int count = counts[random.nextInt(counts.length)];
                int base = (firstChunk + 2 * c) << 16;
                boolean run = random.nextBoolean();
                int start = run ? random.nextInt(65_536 - count + 1) : 0;
                java.util.BitSet chosen = new java.util.BitSet(65_536);
                if (run || count == 65_536) {
                  chosen.set(start, start + count);
                }
                for (int set = chosen.cardinality(); set < count; ) {
                  int low = random.nextInt(65_536);
                  if (!chosen.get(low)) {
                    chosen.set(low);
                    set++;
                  }
                }
                for (int low = chosen.nextSetBit(0); low >= 0; low = chosen.nextSetBit(low + 1)) {
                  rows[n++] = base + low;
                }
              }
              MutableRoaringBitmap expected = new MutableRoaringBitmap();
              expected.addN(rows, 0, n);
              MutableRoaringBitmap actual = BitmapList.ofAscending(rows, 0, n);
              assertEquals(expected, actual);
              expected.runOptimize();
              actual.runOptimize();
              assertArrayEquals(serialized(expected), serialized(actual));
            });
  }

  private static byte[] serialized(MutableRoaringBitmap b) {
    java.nio.ByteBuffer out = java.nio.ByteBuffer.allocate(b.serializedSizeInBytes());
    b.serialize(out);
    return out.array();
  }

  @Test
  void groupedRowsGroupEveryRowUnderItsKeyInOrder() {
    int[] keys = {2, -1, 0, 2, 2, -1, 0};
    GroupedRows g = GroupedRows.of(keys, keys.length, 4);
    assertArrayEquals(new int[] {0, 2, 2, 5, 5}, g.starts());
    assertArrayEquals(new int[] {2, 6, 0, 3, 4}, g.rows());
  }

  @Test
  void aSingleRowCostsOnlyItsPackedEntry() {
    List<MutableRoaringBitmap> single = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      single.add(MutableRoaringBitmap.bitmapOf(i * 250));
    }
    BitmapList list = BitmapList.of(single);
    // Rows up to 249,750 take 18 bits, and the tag one more: no data at all.
    assertEquals(0, list.data().capacity());
    assertEquals(19, list.entries().bits());
    assertEquals(single.get(999), list.get(999).toMutableRoaringBitmap());
  }

  static Gen<List<MutableRoaringBitmap>> bitmapLists() {
    Gen<MutableRoaringBitmap> small =
        Gens.distinctListOf(Gens.ints(0, 300_000), BitmapList.MAX_SHORT + 2)
            .map(rows -> MutableRoaringBitmap.bitmapOf(rows.stream().mapToInt(r -> r).toArray()));
    Gen<MutableRoaringBitmap> runs =
        Gens.ints(0, 200_000)
            .zip(
                Gens.ints(1, 70_000),
                (from, len) -> {
                  MutableRoaringBitmap b = new MutableRoaringBitmap();
                  b.add((long) from, (long) from + len);
                  return b;
                });
    Gen<MutableRoaringBitmap> spread =
        Gens.listOf(Gens.ints(0, 300_000), 8, 3000)
            .map(rows -> MutableRoaringBitmap.bitmapOf(rows.stream().mapToInt(r -> r).toArray()));
    Gen<MutableRoaringBitmap> one =
        Gens.ints(0, Integer.MAX_VALUE).map(row -> MutableRoaringBitmap.bitmapOf(row));
    Gen<MutableRoaringBitmap> empty = Gens.of(0).map(x -> new MutableRoaringBitmap());
    return Gens.listOf(Gens.oneOf(small, small, one, runs, spread, empty), 1, 40)
        .describedAs(BitmapListProperties::describe);
  }

  private static String describe(List<MutableRoaringBitmap> bitmaps) {
    StringBuilder sb = new StringBuilder();
    for (MutableRoaringBitmap b : bitmaps) {
      sb.append(
              b.getCardinality() <= 10
                  ? b.toString()
                  : b.getCardinality() + " rows from " + b.first())
          .append(' ');
    }
    return sb.toString();
  }
}
