package dev.chartwell.engine.segment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;

import dev.chartwell.testing.Gens;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import org.roaringbitmap.buffer.MutableRoaringBitmap;

/** Bitmaps of every size, in both stored forms, read back exactly as written. */
class BitmapListProperties {

  @Test
  void everyBitmapReadsBackEqual() {
    qt().withExamples(300).forAll(bitmapLists()).checkAssert(BitmapListProperties::readsBack);
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
