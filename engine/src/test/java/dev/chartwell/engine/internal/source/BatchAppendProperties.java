package dev.chartwell.engine.internal.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import dev.chartwell.engine.AppendResult;
import dev.chartwell.engine.ColumnSpec;
import dev.chartwell.engine.ColumnType;
import dev.chartwell.engine.Event;
import dev.chartwell.engine.RejectedEventException;
import dev.chartwell.engine.Source;
import dev.chartwell.engine.SourceKind;
import dev.chartwell.engine.SourceSpec;
import dev.chartwell.engine.internal.segment.Segment;
import dev.chartwell.engine.internal.segment.SegmentRows;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Appending a batch checks it a field at a time, yet keeps the rules of appending its events one
 * after the other: the same events accepted, the same reasons for the others, the same columns with
 * the same types, the same stored values. Events mix every kind of value, into columns of every
 * type and into new ones, with conflicting first values, invalid values, bad names, the timestamp
 * column's name and negative timestamps.
 */
class BatchAppendProperties {
  private static final String[] NAMES = {"a", "b", "c", "d", "Timestamp", "", "n\u0001"};

  @Test
  void aBatchIsAppendedAsItsEventsWouldBeOneByOne() {
    qt().withExamples(400).forAll(longs().all()).checkAssert(BatchAppendProperties::sameOutcome);
  }

  private static void sameOutcome(long seed) {
    Random random = new Random(seed);
    List<Event> events = new ArrayList<>();
    int n = random.nextInt(40);
    for (int i = 0; i < n; i++) {
      Map<String, Object> fields = new LinkedHashMap<>();
      int count = random.nextInt(4);
      for (int k = 0; k < count; k++) {
        String name =
            random.nextInt(10) == 0 ? NAMES[4 + random.nextInt(3)] : NAMES[random.nextInt(4)];
        fields.put(name, value(random));
      }
      events.add(new Event(timestamp(random, i), fields));
    }
    int segmentRows = 1 + random.nextInt(20);
    ColumnSpec[] declared =
        random.nextBoolean()
            ? new ColumnSpec[] {new ColumnSpec("b", ColumnType.LONG)}
            : new ColumnSpec[0];

    // The rules, event by event, written out plainly.
    Map<String, ColumnType> schema = new LinkedHashMap<>();
    for (ColumnSpec c : declared) {
      schema.put(c.name(), c.type());
    }
    List<String> expected = new ArrayList<>();
    List<String> expectedRows = new ArrayList<>();
    for (int i = 0; i < events.size(); i++) {
      Event e = events.get(i);
      try {
        expectedRows.add(check(e, schema));
      } catch (RejectedEventException x) {
        expected.add(i + (e.fields().size() <= 1 ? ": " + x.getMessage() : ""));
      }
    }
    SourceCore oneByOne = source(segmentRows, declared);
    for (Event e : events) {
      try {
        oneByOne.append(e);
      } catch (RejectedEventException x) {
        // counted by the reference
      }
    }
    SourceCore batched = source(segmentRows, declared);
    List<String> actual = new ArrayList<>();
    for (AppendResult.Rejection r : batched.append(Batches.of(events)).rejections()) {
      int i = r.index();
      actual.add(i + (events.get(i).fields().size() <= 1 ? ": " + r.reason() : ""));
    }
    assertEquals(expected, actual, "rejections");
    assertEquals(new TreeMap<>(schema), columns(batched), "columns");
    List<String> stored = rows(batched);
    assertEquals(rows(oneByOne), stored, "stored rows, batched and one by one");
    assertEquals(expectedRows.stream().sorted().toList(), stored.stream().sorted().toList());
  }

  /** Mostly valid timestamps; now and then one before 1970, in seconds, or after 9999. */
  private static long timestamp(java.util.Random random, int i) {
    return switch (random.nextInt(40)) {
      case 0 -> -1;
      case 1 -> 1_700_000_000L + i; // seconds
      case 2 -> Source.MAX_TIMESTAMP + 1;
      case 3 -> Source.MIN_TIMESTAMP - 1;
      case 4 -> Source.MIN_TIMESTAMP;
      default -> 1_700_000_000_000L + i;
    };
  }

  /** Checks and converts one event as the rules say, defining its new columns when it fits. */
  private static String check(Event e, Map<String, ColumnType> schema) {
    if (e.timestamp() < Source.MIN_TIMESTAMP || e.timestamp() > Source.MAX_TIMESTAMP) {
      throw new RejectedEventException(BatchCheck.timestampProblem(e.timestamp()));
    }
    Map<String, ColumnType> added = new LinkedHashMap<>();
    Map<String, Object> row = new TreeMap<>();
    for (Map.Entry<String, Object> f : e.fields().entrySet()) {
      if (f.getValue() == null) {
        continue;
      }
      String name = f.getKey();
      if (name.equals("Timestamp")) {
        throw new RejectedEventException(
            "field '" + name + "' is the timestamp column; it is the event's timestamp");
      }
      ColumnType type = schema.get(name);
      if (type == null) {
        String problem = Schema.nameProblem(name);
        if (problem != null) {
          throw new RejectedEventException(problem);
        }
        type = ValueCoercion.inferType(name, f.getValue());
        added.put(name, type);
      }
      row.put(name, ValueCoercion.coerce(name, f.getValue(), type));
    }
    schema.putAll(added);
    row.put("@ts", e.timestamp());
    return row.toString();
  }

  private static Object value(Random random) {
    return switch (random.nextInt(14)) {
      case 0 -> "s" + random.nextInt(3);
      case 1 -> Integer.toString(random.nextInt(5) - 2);
      case 2 -> random.nextBoolean() ? "true" : "false";
      case 3 -> (long) random.nextInt(5) - 2;
      case 4 -> random.nextInt(3) * 0.5;
      case 5 -> random.nextBoolean();
      case 6 -> new BigInteger("123456789012345678901234567890");
      case 7 -> new BigDecimal("2.50");
      case 8 -> Double.NaN;
      case 9 -> "bad \ud800 surrogate";
      case 10 -> random.nextInt(3);
      case 11 -> List.of(1, 2);
      case 12 -> "2.0";
      default -> null;
    };
  }

  private static SourceCore source(int segmentRows, ColumnSpec... declared) {
    return SourceCore.create(
        new SourceCore.Setup(
            "s",
            new SourceSpec(null, "s", SourceKind.LOG, "Timestamp", null, null, List.of(declared)),
            segmentRows,
            Long.MAX_VALUE,
            s -> {},
            () -> {},
            SourceStorage.inMemory(),
            Runnable::run));
  }

  private static Map<String, ColumnType> columns(SourceCore s) {
    Map<String, ColumnType> out = new TreeMap<>();
    for (Schema.Column c : s.schema().columns()) {
      out.put(c.name(), c.type());
    }
    return out;
  }

  private static List<String> rows(SourceCore s) {
    List<String> out = new ArrayList<>();
    try (SourceSnapshot snap = s.snapshot()) {
      for (Segment seg : snap.segments()) {
        for (Map<String, Object> row : SegmentRows.read(seg)) {
          out.add(new TreeMap<>(row).toString());
        }
      }
    }
    return out;
  }
}
