package dev.chartwell.engine.internal.segment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;

import dev.chartwell.testing.Gens;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.LongBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.SourceDSL;

class PackedLongsProperties {

  @Test
  void packedValuesReadBackExactly() {
    qt().withExamples(1000).forAll(values()).checkAssert(PackedLongsProperties::readsBack);
  }

  private static void readsBack(List<Long> values) {
    long[] raw = values.stream().mapToLong(Long::longValue).toArray();
    PackedLongs packed = PackedLongs.pack(raw, raw.length);
    assertEquals(raw.length, packed.size());
    for (int i = 0; i < raw.length; i++) {
      assertEquals(raw[i], packed.get(i), "index " + i);
    }
  }

  @Test
  void runsDecodeLikeSingleValues() {
    qt().withExamples(1000).forAll(values()).checkAssert(PackedLongsProperties::runsDecode);
  }

  private static void runsDecode(List<Long> values) {
    long[] small = values.stream().mapToLong(v -> Math.floorMod(v, 100_000)).toArray();
    PackedLongs heap = PackedLongs.pack(small, small.length);
    // As a segment file maps them: the same words in a direct buffer, in either byte order.
    for (ByteOrder order : new ByteOrder[] {ByteOrder.LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN}) {
      LongBuffer words = heap.words();
      LongBuffer direct =
          ByteBuffer.allocateDirect(8 * words.capacity()).order(order).asLongBuffer();
      for (int i = 0; i < words.capacity(); i++) {
        direct.put(i, words.get(i));
      }
      PackedLongs mapped = PackedLongs.of(heap.min(), heap.bits(), heap.size(), direct);
      for (PackedLongs ints : List.of(heap, mapped)) {
        for (int from : new int[] {0, small.length / 3, small.length / 2}) {
          for (int to : new int[] {from, (from + small.length) / 2, small.length}) {
            int[] intOut = new int[to - from];
            ints.getInts(from, to, intOut);
            for (int i = from; i < to; i++) {
              assertEquals(small[i], intOut[i - from], "index " + i + " of " + from + ".." + to);
            }
          }
        }
      }
    }
  }

  @Test
  void stableOrderSortsByTimestamp() {
    qt().withExamples(1000)
        .forAll(Gens.listOf(Gens.longs(0, 50), 0, 200))
        .checkAssert(PackedLongsProperties::sortsStably);
  }

  private static void sortsStably(List<Long> ts) {
    long[] keys = ts.stream().mapToLong(Long::longValue).toArray();
    int[] order = RowOrder.sortedOrNull(keys, keys.length);
    int n = keys.length;
    for (int i = 1; i < n; i++) {
      int a = order == null ? i - 1 : order[i - 1];
      int b = order == null ? i : order[i];
      boolean ok = keys[a] < keys[b] || (keys[a] == keys[b] && a < b);
      assertEquals(true, ok, "rows " + a + " and " + b);
    }
    if (order != null) {
      assertEquals(n, java.util.Arrays.stream(order).distinct().count());
    }
  }

  static Gen<List<Long>> values() {
    Gen<Long> any =
        Gens.oneOf(
            SourceDSL.longs().all(),
            Gens.longs(-5, 5),
            Gens.of(Long.MIN_VALUE, Long.MAX_VALUE, 0L, -1L),
            Gens.longs(1_700_000_000_000L, 1_700_000_100_000L));
    return Gens.listOf(any, 0, 300);
  }
}
