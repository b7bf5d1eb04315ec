package dev.chartwell.engine.segment;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

class PackedLongsProperties {

  @Property
  void packedValuesReadBackExactly(@ForAll("values") List<Long> values) {
    long[] raw = values.stream().mapToLong(Long::longValue).toArray();
    PackedLongs packed = PackedLongs.pack(raw, raw.length);
    assertEquals(raw.length, packed.size());
    for (int i = 0; i < raw.length; i++) {
      assertEquals(raw[i], packed.get(i), "index " + i);
    }
  }

  @Property
  void runsDecodeLikeSingleValues(@ForAll("values") List<Long> values) {
    int from = values.size() / 3;
    long[] small = values.stream().mapToLong(v -> Math.floorMod(v, 100_000)).toArray();
    PackedLongs ints = PackedLongs.pack(small, small.length);
    int[] intOut = new int[small.length];
    ints.getInts(from, small.length, intOut);
    for (int i = from; i < small.length; i++) {
      assertEquals(small[i], intOut[i - from], "index " + i);
    }
  }

  @Property
  void stableOrderSortsByTimestamp(@ForAll("timestamps") List<Long> ts) {
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

  @Provide
  Arbitrary<List<Long>> values() {
    Arbitrary<Long> any =
        Arbitraries.oneOf(
            Arbitraries.longs(),
            Arbitraries.longs().between(-5, 5),
            Arbitraries.of(Long.MIN_VALUE, Long.MAX_VALUE, 0L, -1L),
            Arbitraries.longs().between(1_700_000_000_000L, 1_700_000_100_000L));
    return any.list().ofMaxSize(300);
  }

  @Provide
  Arbitrary<List<Long>> timestamps() {
    return Arbitraries.longs().between(0, 50).list().ofMaxSize(200);
  }
}
