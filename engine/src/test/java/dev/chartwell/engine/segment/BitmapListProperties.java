package dev.chartwell.engine.segment;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import org.roaringbitmap.buffer.MutableRoaringBitmap;

/** Bitmaps of every size, in both stored forms, read back exactly as written. */
class BitmapListProperties {

  @Property(tries = 300)
  void everyBitmapReadsBackEqual(@ForAll("bitmapLists") List<MutableRoaringBitmap> bitmaps) {
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
  void singleRowsCostFiveBytesEach() {
    List<MutableRoaringBitmap> single = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      single.add(MutableRoaringBitmap.bitmapOf(i * 250));
    }
    long bytes = BitmapList.of(single).bytes();
    // 5 bytes of data and a 4-byte offset per bitmap, plus the fixed object cost.
    assertEquals(9 * 1000 + 4 + 48, bytes);
  }

  @Provide
  Arbitrary<List<MutableRoaringBitmap>> bitmapLists() {
    Arbitrary<MutableRoaringBitmap> small =
        Arbitraries.integers()
            .between(0, 300_000)
            .set()
            .ofMaxSize(BitmapList.MAX_SHORT + 2)
            .map(rows -> MutableRoaringBitmap.bitmapOf(rows.stream().mapToInt(r -> r).toArray()));
    Arbitrary<MutableRoaringBitmap> runs =
        Arbitraries.integers()
            .between(0, 200_000)
            .flatMap(
                from ->
                    Arbitraries.integers()
                        .between(1, 70_000)
                        .map(
                            len -> {
                              MutableRoaringBitmap b = new MutableRoaringBitmap();
                              b.add((long) from, (long) from + len);
                              return b;
                            }));
    Arbitrary<MutableRoaringBitmap> spread =
        Arbitraries.integers()
            .between(0, 300_000)
            .list()
            .ofMinSize(8)
            .ofMaxSize(3000)
            .map(rows -> MutableRoaringBitmap.bitmapOf(rows.stream().mapToInt(r -> r).toArray()));
    return Arbitraries.oneOf(small, small, runs, spread).list().ofMinSize(1).ofMaxSize(40);
  }
}
