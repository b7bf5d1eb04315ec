package dev.chartwell.engine.internal.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import dev.chartwell.engine.ColumnType;
import dev.chartwell.engine.Event;
import dev.chartwell.engine.EventBatch;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A batch record decodes to exactly the accepted events of the range it was made from: timestamps
 * (any, negative and far apart included), each type of value bit for bit (-0.0, NaN payloads,
 * extreme longs, empty and non-ASCII strings), fields in the batch's order, absent values; and a
 * large range becomes several records that together hold it.
 */
class BatchCodecProperties {
  private static final ColumnType[] TYPES = ColumnType.values();

  @Test
  void recordsDecodeToTheAcceptedEventsOfTheirRange() {
    qt().withExamples(500).forAll(longs().all()).checkAssert(BatchCodecProperties::roundTrip);
  }

  @Test
  void aLargeRangeBecomesSeveralRecords() {
    EventBatch batch = new EventBatch();
    String big = "x".repeat(100_000);
    for (int i = 0; i < 100; i++) {
      batch.startEvent();
      batch.timestamp(i);
      batch.put("Body", big + i);
      batch.put("n", (long) i);
      batch.endEvent();
    }
    ColumnType[] types = {ColumnType.STRING, ColumnType.LONG};
    List<byte[]> records = BatchCodec.encode(batch, types, null, 0, 100);
    assertTrue(records.size() >= 2, "split into " + records.size());
    List<Event> decoded = new ArrayList<>();
    for (byte[] r : records) {
      assertTrue(r.length <= BatchCodec.RECORD_BYTES + 200_000, "a record of " + r.length);
      decoded.addAll(decode(r));
    }
    List<Event> expected = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      expected.add(batch.event(i));
    }
    assertEquals(expected, decoded);
  }

  @Test
  void aDamagedRecordIsRefusedNotMisread() {
    EventBatch batch = new EventBatch();
    batch.startEvent();
    batch.timestamp(5);
    batch.put("a", "text");
    batch.put("b", 3L);
    batch.endEvent();
    byte[] record =
        BatchCodec.encode(batch, new ColumnType[] {ColumnType.STRING, ColumnType.LONG}, null, 0, 1)
            .get(0);
    EventBatch into = new EventBatch();
    for (int cut = 0; cut < record.length; cut++) {
      byte[] shorter = java.util.Arrays.copyOf(record, cut);
      assertThrows(IllegalArgumentException.class, () -> BatchCodec.decode(shorter, into));
    }
    byte[] longer = java.util.Arrays.copyOf(record, record.length + 1);
    assertThrows(IllegalArgumentException.class, () -> BatchCodec.decode(longer, into));
  }

  private static void roundTrip(long seed) {
    Random random = new Random(seed);
    int fields = 1 + random.nextInt(5);
    ColumnType[] types = new ColumnType[fields];
    for (int f = 0; f < fields; f++) {
      types[f] = random.nextInt(8) == 0 ? null : TYPES[random.nextInt(TYPES.length)];
    }
    EventBatch batch = new EventBatch();
    int n = random.nextInt(60);
    long ts = random.nextLong();
    for (int i = 0; i < n; i++) {
      ts = random.nextInt(4) == 0 ? random.nextLong() : ts + random.nextInt(1000);
      batch.startEvent();
      batch.timestamp(ts);
      for (int f = 0; f < fields; f++) {
        int field = batch.field("f" + f);
        if (types[f] == null || random.nextInt(3) == 0) {
          continue;
        }
        switch (types[f]) {
          case STRING -> batch.putString(field, string(random));
          case LONG -> batch.putLong(field, longValue(random));
          case DOUBLE -> batch.putDouble(field, doubleValue(random));
          case BOOL -> batch.putBoolean(field, random.nextBoolean());
        }
      }
      batch.endEvent();
    }
    boolean[] rejected = random.nextBoolean() ? null : new boolean[n];
    if (rejected != null) {
      for (int i = 0; i < n; i++) {
        rejected[i] = random.nextInt(4) == 0;
      }
    }
    int from = n == 0 ? 0 : random.nextInt(n + 1);
    int to = from + (n == from ? 0 : random.nextInt(n - from + 1));
    List<Event> expected = new ArrayList<>();
    for (int i = from; i < to; i++) {
      if (rejected == null || !rejected[i]) {
        expected.add(withoutAbsent(batch.event(i)));
      }
    }
    List<Event> decoded = new ArrayList<>();
    for (byte[] r : BatchCodec.encode(batch, types, rejected, from, to)) {
      decoded.addAll(decode(r));
    }
    assertEquals(expected.size(), decoded.size());
    for (int i = 0; i < expected.size(); i++) {
      assertEquals(expected.get(i).timestamp(), decoded.get(i).timestamp());
      assertEquals(bits(expected.get(i).fields()), bits(decoded.get(i).fields()));
    }
  }

  private static Event withoutAbsent(Event e) {
    return new Event(e.timestamp(), new LinkedHashMap<>(e.fields()));
  }

  /** Field names and values in order, doubles as their bits. */
  private static List<String> bits(Map<String, Object> fields) {
    List<String> out = new ArrayList<>();
    fields.forEach(
        (k, v) ->
            out.add(
                k
                    + "="
                    + (v instanceof Double d
                        ? "d" + Double.doubleToRawLongBits(d)
                        : v.toString())));
    return out;
  }

  private static List<Event> decode(byte[] record) {
    EventBatch into = new EventBatch();
    BatchCodec.decode(record, into);
    List<Event> out = new ArrayList<>();
    for (int i = 0; i < into.size(); i++) {
      out.add(into.event(i));
    }
    return out;
  }

  private static String string(Random random) {
    return switch (random.nextInt(5)) {
      case 0 -> "";
      case 1 -> "été \ud83d\ude00 " + random.nextInt(100);
      case 2 -> "x".repeat(random.nextInt(300));
      default -> "v" + random.nextInt(1000);
    };
  }

  private static long longValue(Random random) {
    return switch (random.nextInt(4)) {
      case 0 -> Long.MIN_VALUE;
      case 1 -> Long.MAX_VALUE;
      default -> random.nextLong() >> random.nextInt(64);
    };
  }

  private static double doubleValue(Random random) {
    return switch (random.nextInt(5)) {
      case 0 -> -0.0;
      case 1 -> Double.longBitsToDouble(0x7ff8000000000123L); // a NaN with a payload
      case 2 -> Double.MIN_VALUE;
      default -> random.nextGaussian() * 1e6;
    };
  }
}
