package dev.chartwell.engine.internal.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chartwell.engine.AppendResult;
import dev.chartwell.engine.ColumnSpec;
import dev.chartwell.engine.ColumnType;
import dev.chartwell.engine.Event;
import dev.chartwell.engine.RejectedEventException;
import dev.chartwell.engine.SourceKind;
import dev.chartwell.engine.SourceSpec;
import dev.chartwell.engine.SourceStats;
import dev.chartwell.engine.internal.segment.Segment;
import dev.chartwell.engine.internal.segment.SegmentRows;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class SourceTest {
  /** Timestamps in tests are offsets from here: events must be in 2001 or later. */
  static final long T0 = 1_700_000_000_000L;

  private static final java.util.concurrent.Executor SEALER =
      java.util.concurrent.Executors.newSingleThreadExecutor(
          r -> {
            Thread t = new Thread(r, "test-sealer");
            t.setDaemon(true);
            return t;
          });
  private final AtomicInteger seals = new AtomicInteger();

  private SourceCore source(int segmentRows, ColumnSpec... declared) {
    return source(SEALER, segmentRows, declared);
  }

  private SourceCore source(
      java.util.concurrent.Executor sealer, int segmentRows, ColumnSpec... declared) {
    SourceSpec spec =
        new SourceSpec(
            null, "logs", SourceKind.LOG, "Timestamp", "Body", "Body", List.of(declared));
    return SourceCore.create(
        new SourceCore.Setup(
            "s1",
            spec,
            segmentRows,
            Long.MAX_VALUE,
            s -> seals.incrementAndGet(),
            () -> {},
            SourceStorage.inMemory(),
            sealer));
  }

  private static Event event(long ts, Object... kv) {
    Map<String, Object> fields = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      fields.put((String) kv[i], kv[i + 1]);
    }
    return new Event(ts < 0 ? ts : T0 + ts, fields);
  }

  private static List<Map<String, Object>> allRows(SourceCore s) {
    List<Map<String, Object>> rows = new ArrayList<>();
    for (Segment seg : s.snapshot().segments()) {
      for (Map<String, Object> row : SegmentRows.read(seg)) {
        row.put("@ts", (Long) row.get("@ts") - T0);
        rows.add(row);
      }
    }
    return rows;
  }

  @Test
  void appendsAndReadsBackEveryType() {
    SourceCore s = source(100);
    s.append(event(1000, "Body", "hello", "status", 200, "duration", 1.25, "ok", true));
    s.append(event(2000, "Body", "world", "status", 500L, "duration", 3.5f, "ok", false));
    assertEquals(
        List.of(
            Map.of("@ts", 1000L, "Body", "hello", "status", 200L, "duration", 1.25, "ok", true),
            Map.of("@ts", 2000L, "Body", "world", "status", 500L, "duration", 3.5, "ok", false)),
        allRows(s));
    assertEquals(
        List.of(
            new Schema.Column("Body", ColumnType.STRING, 0),
            new Schema.Column("status", ColumnType.LONG, 1),
            new Schema.Column("duration", ColumnType.DOUBLE, 2),
            new Schema.Column("ok", ColumnType.BOOL, 3)),
        s.schema().columns().stream()
            .sorted(java.util.Comparator.comparingInt(Schema.Column::ordinal))
            .toList());
  }

  @Test
  void declaredColumnsFixTheType() {
    SourceCore s = source(100, new ColumnSpec("status", ColumnType.STRING));
    s.append(event(1, "status", 404));
    assertEquals(List.of(Map.of("@ts", 1L, "status", "404")), allRows(s));
  }

  @Test
  void implicitColumnIsAlwaysAString() {
    SourceCore s = source(100);
    s.append(event(1, "Body", 42));
    assertEquals(ColumnType.STRING, s.schema().column("Body").orElseThrow().type());
    assertEquals(List.of(Map.of("@ts", 1L, "Body", "42")), allRows(s));
  }

  @Test
  void losslessValuesAreCoercedOthersRejectTheEvent() {
    SourceCore s = source(100);
    s.append(event(1, "str", "a", "n", 1L, "d", 1.5, "b", true));
    // lossless
    s.append(event(2, "str", 7L, "n", "42", "d", 3L, "b", "false"));
    s.append(event(3, "str", true, "n", 5.0, "d", "0.5", "b", false));
    s.append(
        event(4, "str", 2.5, "n", new BigDecimal("6.000"), "d", new BigInteger("9"), "b", true));
    assertEquals(
        List.of(
            Map.of("@ts", 1L, "str", "a", "n", 1L, "d", 1.5, "b", true),
            Map.of("@ts", 2L, "str", "7", "n", 42L, "d", 3.0, "b", false),
            Map.of("@ts", 3L, "str", "true", "n", 5L, "d", 0.5, "b", false),
            Map.of("@ts", 4L, "str", "2.5", "n", 6L, "d", 9.0, "b", true)),
        allRows(s));

    Object[][] lossy = {
      {
        "n",
        1.5,
        "field 'n' is a long column; 1.5 cannot be stored in it (not a whole number in the long range)"
      },
      {"n", "abc", "field 'n' is a long column; 'abc' cannot be stored in it (not a number)"},
      {
        "n",
        true,
        "field 'n' is a long column; true cannot be stored in it (a boolean is not a number)"
      },
      {
        "n",
        new BigInteger("99999999999999999999"),
        "field 'n' is a long column; 99999999999999999999 cannot be stored in it (not a whole number in the long range)"
      },
      {
        "d",
        9007199254740993L,
        "field 'd' is a double column; 9007199254740993 cannot be stored in it (not exactly representable as a double)"
      },
      {
        "d",
        "0.1",
        "field 'd' is a double column; '0.1' cannot be stored in it (not exactly representable as a double)"
      },
      {"d", Double.NaN, "field 'd': NaN is not a finite number"},
      {
        "b",
        1L,
        "field 'b' is a bool column; 1 cannot be stored in it (only true and false are booleans)"
      },
      {
        "b",
        "yes",
        "field 'b' is a bool column; 'yes' cannot be stored in it (only true and false are booleans)"
      },
      {
        "str", List.of(1), "field 'str': a list cannot be stored (use strings, numbers or booleans)"
      },
      {
        "str",
        Map.of("a", 1),
        "field 'str': an object cannot be stored (use strings, numbers or booleans)"
      },
      {
        "str",
        new Object(),
        "field 'str': a value of an unsupported type cannot be stored (use strings, numbers or"
            + " booleans)"
      },
    };
    for (Object[] c : lossy) {
      RejectedEventException e =
          assertThrows(RejectedEventException.class, () -> s.append(event(9, (String) c[0], c[1])));
      assertEquals(c[2], e.getMessage());
    }
    assertEquals(4, s.snapshot().rows(), "rejected events leave nothing behind");
  }

  @Test
  void rejectedEventDefinesNoColumn() {
    SourceCore s = source(100);
    s.append(event(1, "n", 1L));
    assertThrows(RejectedEventException.class, () -> s.append(event(2, "fresh", "x", "n", "bad")));
    assertTrue(s.schema().column("fresh").isEmpty());
    s.append(event(3, "fresh", 5L));
    assertEquals(ColumnType.LONG, s.schema().column("fresh").orElseThrow().type());
  }

  @Test
  void otherRejections() {
    SourceCore s = source(100);
    assertEquals(
        "timestamp -1 is before 1970; epoch milliseconds expected",
        assertThrows(RejectedEventException.class, () -> s.append(event(-1))).getMessage());
    assertEquals(
        "field 'Timestamp' is the timestamp column; it is the event's timestamp",
        assertThrows(RejectedEventException.class, () -> s.append(event(1, "Timestamp", 5L)))
            .getMessage());
    assertEquals(
        "field name is empty",
        assertThrows(RejectedEventException.class, () -> s.append(event(1, "", 5L))).getMessage());
    s.append(event(1, "absent", null));
    assertTrue(s.schema().column("absent").isEmpty(), "null means absent");
  }

  @Test
  void stringsMustBeValidUnicodeAndAreKeptExactly() {
    SourceCore s = source(2);
    String emoji = "ok \uD83D\uDE00 \uE000 done"; // a surrogate pair and a private-use character
    s.append(event(1, "Body", emoji));
    // Stored as UTF-8, an unpaired surrogate would silently come back as '?'.
    assertEquals(
        "field 'Body': the string has an unpaired UTF-16 surrogate at index 2 (U+D83D); only"
            + " valid Unicode text can be stored",
        assertThrows(RejectedEventException.class, () -> s.append(event(2, "Body", "ab\uD83D")))
            .getMessage());
    assertEquals(
        "field 'note': the string has an unpaired UTF-16 surrogate at index 0 (U+DE00); only"
            + " valid Unicode text can be stored",
        assertThrows(RejectedEventException.class, () -> s.append(event(3, "note", "\uDE00x")))
            .getMessage());
    assertEquals(
        "field name contains an unpaired UTF-16 surrogate (not valid Unicode text)",
        assertThrows(RejectedEventException.class, () -> s.append(event(4, "n\uD83D", 1L)))
            .getMessage());
    s.append(event(4, "Body", "after", "\uD83D\uDE00", 1L));
    // An unpaired surrogate (or a real '?') anywhere in a string of any length: the check reads
    // eight bytes at a time, and the last eight overlapping the word before.
    for (int length = 1; length <= 20; length++) {
      for (int at = 0; at < length; at++) {
        char[] text = "a".repeat(length).toCharArray();
        text[at] = '\uDC00';
        String bad = new String(text);
        assertThrows(RejectedEventException.class, () -> s.append(event(5, "q", bad)), bad);
        text[at] = '?';
        s.append(event(5, "q", new String(text)));
      }
    }
    assertEquals(2 + 210, s.stats().rows());
    s.seal();
    assertEquals(
        List.of(
            Map.of("@ts", 1L, "Body", emoji),
            Map.of("@ts", 4L, "Body", "after", "\uD83D\uDE00", 1L)),
        allRows(s).subList(0, 2));
  }

  @Test
  void batchKeepsValidEventsAndReportsTheOthers() {
    SourceCore s = source(100);
    AppendResult r =
        s.append(
            Batches.of(
                List.of(
                    event(1, "n", 1L),
                    event(2, "n", "x"),
                    event(3, "n", 3L),
                    event(-4),
                    event(5, "n", 5L))));
    assertEquals(3, r.accepted());
    assertEquals(
        List.of(
            new AppendResult.Rejection(
                1, "field 'n' is a long column; 'x' cannot be stored in it (not a number)"),
            new AppendResult.Rejection(
                3, "timestamp -4 is before 1970; epoch milliseconds expected")),
        r.rejections());
    assertEquals(3, s.snapshot().rows());
  }

  @Test
  void lateEventsAreSortedIntoTheSegmentTheyAreSealedIn() {
    SourceCore s = source(4);
    long[] times = {50, 10, 40, 20, 30, 5, 60};
    for (int i = 0; i < times.length; i++) {
      s.append(event(times[i], "i", (long) i));
    }
    List<Segment> segments = s.snapshot().segments();
    assertEquals(2, segments.size());
    s.awaitSealing();
    assertEquals(1, s.sealedSegments().size());
    assertEquals(1, seals.get());
    List<Long> first =
        SegmentRows.read(segments.get(0)).stream().map(r -> (Long) r.get("@ts")).toList();
    List<Long> head =
        SegmentRows.read(segments.get(1)).stream().map(r -> (Long) r.get("@ts")).toList();
    assertEquals(List.of(T0 + 10, T0 + 20, T0 + 40, T0 + 50), first);
    assertEquals(List.of(T0 + 5, T0 + 30, T0 + 60), head);
  }

  @Test
  void sealingBoundaries() {
    SourceCore s = source(10);
    for (int i = 0; i < 25; i++) {
      s.append(event(i, "i", (long) i));
    }
    s.awaitSealing();
    assertEquals(2, s.sealedSegments().size());
    assertEquals(List.of(10, 10, 5), s.snapshot().segments().stream().map(Segment::rows).toList());
    s.seal();
    assertEquals(List.of(10, 10, 5), s.snapshot().segments().stream().map(Segment::rows).toList());
    assertEquals(3, s.sealedSegments().size());
    s.seal(); // empty head: nothing to seal
    assertEquals(3, s.sealedSegments().size());
    s.append(Batches.of(List.of(event(1, "i", 1L), event(2, "i", 2L))));
    assertEquals(27, s.snapshot().rows());
  }

  @Test
  void aBatchTheLogCannotTakeLeavesNothingBehind() {
    // An in-memory storage whose log fails on demand, as a full disk would.
    SourceStorage memory = SourceStorage.inMemory();
    java.util.concurrent.atomic.AtomicBoolean failing =
        new java.util.concurrent.atomic.AtomicBoolean();
    SourceStorage storage =
        (SourceStorage)
            java.lang.reflect.Proxy.newProxyInstance(
                SourceStorage.class.getClassLoader(),
                new Class<?>[] {SourceStorage.class},
                (proxy, method, args) -> {
                  if (method.getName().equals("log") && failing.get()) {
                    throw new IllegalStateException("no space left on device");
                  }
                  try {
                    return method.invoke(memory, args);
                  } catch (java.lang.reflect.InvocationTargetException e) {
                    throw e.getCause();
                  }
                });
    SourceSpec spec =
        new SourceSpec(null, "logs", SourceKind.LOG, "Timestamp", "Body", "Body", List.of());
    SourceCore s =
        SourceCore.create(
            new SourceCore.Setup(
                "f", spec, 100, Long.MAX_VALUE, x -> {}, () -> {}, storage, SEALER));
    s.append(Batches.of(List.of(event(1, "Body", "kept"))));
    failing.set(true);
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class,
            () ->
                s.append(Batches.of(List.of(event(2, "Body", "lost"), event(3, "Body", "lost")))));
    assertEquals("no space left on device", e.getMessage());
    assertThrows(IllegalStateException.class, () -> s.append(event(4, "Body", "lost")));
    assertEquals(List.of(Map.of("@ts", 1L, "Body", "kept")), allRows(s));
  }

  @Test
  void frozenHeadIsReusedAndOnlyNewRowsAreBuiltAfterAnAppend() {
    SourceCore s = source(100);
    s.append(event(1, "a", "x"));
    Segment first = s.snapshot().segments().get(0);
    assertSame(first, s.snapshot().segments().get(0));
    s.append(event(2, "a", "y"));
    SourceSnapshot next = s.snapshot();
    assertSame(first, next.segments().get(0), "the rows frozen before are shared");
    assertEquals(1, next.segments().get(1).rows(), "only the new row is built");
    assertEquals(1, first.rows(), "an earlier snapshot does not change");
    s.append(event(3, "a", "z"));
    assertEquals(3, s.snapshot().segments().size());
    s.append(event(4, "a", "w"));
    assertEquals(4, s.snapshot().segments().size(), "the new row is a tail of its own");
    // Four tails: that query asked for them to be built as one, on the sealing thread.
    while (s.aheadBuilds() == 0) {
      Thread.onSpinWait();
    }
    SourceSnapshot merged = s.snapshot();
    assertEquals(1, merged.segments().size(), "four tails are rebuilt as one settled part");
    assertEquals(
        List.of(
            Map.of("@ts", 1L, "a", "x"),
            Map.of("@ts", 2L, "a", "y"),
            Map.of("@ts", 3L, "a", "z"),
            Map.of("@ts", 4L, "a", "w")),
        allRows(s));
  }

  @Test
  void statsCountRowsSegmentsAndBytesPerColumn() {
    SourceCore s = source(10);
    for (int i = 0; i < 25; i++) {
      s.append(event(i, "Body", "msg " + i, "status", 200L + i % 3));
    }
    s.awaitSealing();
    SourceStats st = s.stats();
    assertEquals(25, st.rows());
    assertEquals(2, st.segments());
    assertEquals(5, st.headRows());
    assertTrue(st.timestampBytes() > 0);
    assertTrue(st.tokenIndexBytes() > 0);
    for (SourceStats.ColumnBytes c : st.columns()) {
      assertTrue(c.bytes() > 0, c.toString());
    }
    long columnSum = st.columns().stream().mapToLong(SourceStats.ColumnBytes::bytes).sum();
    assertTrue(
        st.bytes() >= columnSum + st.timestampBytes() + st.tokenIndexBytes() + st.headBytes());
    assertEquals(25, st.acceptedEvents());
    assertTrue(st.eventsPerSecond() > 0, "25 events within the last seconds");
    assertEquals(0, st.sealBacklog());
    assertEquals(0, st.sealBacklogRows());
    assertEquals(0, st.diskBytes(), "a source without a data directory has nothing on disk");
  }

  @Test
  void statsCountOnlyAcceptedEventsAndShowTheSealBacklog() {
    List<Runnable> held = new ArrayList<>(); // the sealing pool, stopped until the test runs it
    SourceCore s = source(held::add, 10);
    List<Event> batch = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      batch.add(event(i, "Body", "msg " + i, "n", 1L));
    }
    batch.add(event(-5, "Body", "before 1970")); // rejected
    assertEquals(12, s.append(Batches.of(batch)).accepted());
    SourceStats waiting = s.stats();
    assertEquals(12, waiting.acceptedEvents());
    assertEquals(1, waiting.sealBacklog());
    assertEquals(10, waiting.sealBacklogRows());
    assertEquals(12, waiting.headRows(), "head rows include the heads waiting to be sealed");
    assertEquals(0, waiting.segments());

    List.copyOf(held).forEach(Runnable::run);
    SourceStats sealed = s.stats();
    assertEquals(0, sealed.sealBacklog());
    assertEquals(0, sealed.sealBacklogRows());
    assertEquals(1, sealed.segments());
    assertEquals(2, sealed.headRows());
    assertEquals(12, sealed.acceptedEvents());
  }
}
