package dev.chartwell.engine.internal.segment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chartwell.engine.ColumnType;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.roaringbitmap.buffer.ImmutableRoaringBitmap;

class SegmentBuilderTest {

  /** A builder of one column of each type, the implicit {@code Body} among them. */
  static SegmentBuilder builder() {
    SegmentBuilder b = new SegmentBuilder(4);
    b.addColumn("level", ColumnType.STRING);
    b.addColumn("status", ColumnType.LONG);
    b.addColumn("duration", ColumnType.DOUBLE);
    b.addColumn("ok", ColumnType.BOOL);
    b.addColumn("Body", ColumnType.STRING);
    return b;
  }

  @Test
  void sealsRowsSortedByTimeWithEveryType() {
    SegmentBuilder b = builder();
    b.append(30, new Object[] {"error", 500L, 1.5, false, "Timeout after 30s"});
    b.append(10, new Object[] {"info", 200L, 0.25, true, "GET /users ok"});
    b.append(20, new Object[] {null, 200L, null, null, "GET /users/42 ok"});
    b.append(10, new Object[] {"info", null, -3.0, true}); // same time as row 2: stays after it
    Segment s = b.build(7, "Body");

    assertEquals(7, s.id());
    assertEquals(4, s.rows());
    assertEquals(10, s.minTimestamp());
    assertEquals(30, s.maxTimestamp());
    assertEquals(
        List.of(
            Map.of(
                "@ts",
                10L,
                "level",
                "info",
                "status",
                200L,
                "duration",
                0.25,
                "ok",
                true,
                "Body",
                "GET /users ok"),
            Map.of("@ts", 10L, "level", "info", "duration", -3.0, "ok", true),
            Map.of("@ts", 20L, "status", 200L, "Body", "GET /users/42 ok"),
            Map.of(
                "@ts",
                30L,
                "level",
                "error",
                "status",
                500L,
                "duration",
                1.5,
                "ok",
                false,
                "Body",
                "Timeout after 30s")),
        SegmentRows.read(s));

    LongColumn status = (LongColumn) s.column("status");
    assertEquals(200, status.min());
    assertEquals(500, status.max());
    assertEquals(3, status.presentCount());
    assertFalse(status.isPresent(1));
    DoubleColumn duration = (DoubleColumn) s.column("duration");
    assertEquals(-3.0, duration.min());
    assertEquals(1.5, duration.max());

    StringColumn level = (StringColumn) s.column("level");
    assertEquals(2, level.dictionary().size());
    assertEquals("error", level.dictionary().get(0));
    assertEquals("info", level.dictionary().get(1));
    assertEquals(List.of(3), rows(level.rows(0)));
    assertEquals(List.of(0, 1), rows(level.rows(1)));
    assertEquals(-1, level.id(2));
    assertEquals(-2, level.dictionary().indexOf("fatal")); // insertion point 1

    BoolColumn ok = (BoolColumn) s.column("ok");
    assertEquals(List.of(0, 1), rows(ok.trueRows()));
    assertEquals(List.of(3), rows(ok.falseRows()));
  }

  @Test
  void tokenIndexCoversTheImplicitColumn() {
    SegmentBuilder b = builder();
    b.append(1, new Object[] {null, null, null, null, "GET /users ok"});
    b.append(2, new Object[] {null, null, null, null, "Timeout after 30s; GET retried"});
    Segment s = b.build(0, "Body");
    TokenIndex index = s.tokenIndex();
    assertEquals(List.of(0, 1), rows(index.rows("get")));
    assertEquals(List.of(1), rows(index.rows("30s")));
    assertEquals(List.of(1), rows(index.rows("timeout")));
    assertTrue(index.rows("Timeout").isEmpty(), "tokens are lower-case");
    assertTrue(index.rows("users/").isEmpty());
  }

  @Test
  void columnsWithoutValuesAreLeftOut() {
    SegmentBuilder b = builder();
    b.append(1, new Object[] {"x"});
    Segment s = b.build(0, "Body");
    assertEquals(Map.of("level", s.column("level")), s.columns());
    assertNull(s.tokenIndex());
    assertNull(s.column("level").presence(), "every row has a level");
  }

  @Test
  void copyIsIndependentOfLaterAppends() {
    SegmentBuilder b = builder();
    b.append(1, new Object[] {"a"});
    SegmentBuilder copy = b.copy();
    for (int i = 0; i < 100; i++) {
      b.append(2, new Object[] {"b", 1L});
    }
    b.addColumn("late", ColumnType.LONG);
    Segment s = copy.build(0, null);
    assertEquals(1, s.rows());
    assertEquals(List.of(Map.of("@ts", 1L, "level", "a")), SegmentRows.read(s));
  }

  /**
   * A column past {@link HeadStrings#DEDUPLICATED_LIMIT} distinct values keeps a string per row; it
   * must seal into the same column as a deduplicated one: one dictionary entry per distinct value,
   * each row its own value, rows out of time order, absent rows and late duplicates.
   */
  @Test
  void nearlyUniqueStringsSealAsRepeatedOnesDo() {
    SegmentBuilder b = new SegmentBuilder(16);
    b.addColumn("Body", ColumnType.STRING);
    java.util.Random random = new java.util.Random(3);
    List<Map<String, Object>> expected = new java.util.ArrayList<>();
    int rows = 3 * HeadStrings.DEDUPLICATED_LIMIT;
    SegmentBuilder copy = null;
    for (int i = 0; i < rows; i++) {
      long ts = random.nextInt(1000);
      String body =
          switch (random.nextInt(8)) {
            case 0 -> null;
            case 1 -> "repeated " + random.nextInt(5);
            default -> "GET /users/" + random.nextInt(1_000_000) + " ok";
          };
      b.append(ts, new Object[] {body});
      expected.add(body == null ? Map.of("@ts", ts) : Map.of("@ts", ts, "Body", body));
      if (i == rows / 2) {
        copy = b.copy();
      }
    }
    expected.sort(java.util.Comparator.comparingLong(r -> (Long) r.get("@ts"))); // stable
    Segment s = b.build(0, "Body");
    assertEquals(expected, SegmentRows.read(s));
    StringDictionary dictionary = ((StringColumn) s.column("Body")).dictionary();
    java.util.TreeSet<String> distinct = new java.util.TreeSet<>();
    expected.forEach(r -> distinct.add((String) r.getOrDefault("Body", "")));
    distinct.remove("");
    List<String> entries = new java.util.ArrayList<>();
    dictionary.iterator().forEachRemaining(entries::add);
    assertEquals(List.copyOf(distinct), entries, "one entry per distinct value, sorted");
    assertEquals(rows / 2 + 1, copy.build(1, "Body").rows(), "the copy kept its rows");
    StringColumn column = (StringColumn) s.column("Body");
    assertEquals(
        expected.stream().filter(r -> "repeated 1".equals(r.get("Body"))).count(),
        rows(column.rows(dictionary.indexOf("repeated 1"))).size(),
        "a value's posting holds each of its rows");
    assertEquals(
        rows(column.rows(dictionary.indexOf("repeated 1"))), rows(s.tokenIndex().rows("1")));
  }

  /**
   * Trace ids, nearly unique and kept per row, are sorted packed ({@link HexSort}); rows without
   * one, repeats and rows out of time order come out as the text sort would have them.
   */
  @Test
  void hexIdsSealPackedAsTheyWouldAsText() {
    SegmentBuilder b = new SegmentBuilder(16);
    b.addColumn("TraceId", ColumnType.STRING);
    java.util.Random random = new java.util.Random(4);
    List<Map<String, Object>> expected = new java.util.ArrayList<>();
    List<String> ids = new java.util.ArrayList<>();
    for (int i = 0; i < 3 * HeadStrings.DEDUPLICATED_LIMIT; i++) {
      long ts = random.nextInt(1000);
      String id =
          random.nextInt(10) == 0
              ? null
              : !ids.isEmpty() && random.nextInt(4) == 0
                  ? ids.get(random.nextInt(ids.size()))
                  : String.format("%016x%016x", random.nextLong(), random.nextLong());
      if (id != null) {
        ids.add(id);
      }
      b.append(ts, new Object[] {id});
      expected.add(id == null ? Map.of("@ts", ts) : Map.of("@ts", ts, "TraceId", id));
    }
    expected.sort(java.util.Comparator.comparingLong(r -> (Long) r.get("@ts"))); // stable
    Segment s = b.build(0, null);
    assertEquals(expected, SegmentRows.read(s));
    StringDictionary dictionary = ((StringColumn) s.column("TraceId")).dictionary();
    List<String> entries = new java.util.ArrayList<>();
    dictionary.iterator().forEachRemaining(entries::add);
    assertEquals(List.copyOf(new java.util.TreeSet<>(ids)), entries);
    assertEquals(
        StringDictionary.of(Utf8Strings.of(entries)).bytes(),
        dictionary.bytes(),
        "the HEX layout, as the text sort gives");
  }

  @Test
  void firstRowAtOrAfterBinarySearches() {
    SegmentBuilder b = builder();
    for (long ts : new long[] {5, 10, 10, 10, 20}) {
      b.append(ts, new Object[0]);
    }
    Segment s = b.build(0, null);
    assertEquals(0, s.firstRowAtOrAfter(0));
    assertEquals(1, s.firstRowAtOrAfter(6));
    assertEquals(1, s.firstRowAtOrAfter(10));
    assertEquals(4, s.firstRowAtOrAfter(11));
    assertEquals(5, s.firstRowAtOrAfter(21));
  }

  @Test
  void aCopyOfACopyHoldsTheSameRowsForDeduplicatedAndPerRowStrings() {
    SegmentBuilder b = new SegmentBuilder(4);
    b.addColumn("few", ColumnType.STRING); // few distinct values: kept as a dictionary
    b.addColumn("each", ColumnType.STRING); // one per row past the limit: kept per row
    int n = HeadStrings.DEDUPLICATED_LIMIT * 2;
    for (int i = 0; i < n; i++) {
      b.append(i, new Object[] {i % 3 == 0 ? null : "v" + i % 5, "row " + i});
    }
    SegmentBuilder copy = b.copy(10, n - 10);
    SegmentBuilder again = copy.copy(5, copy.rows() - 5);
    assertEquals(
        SegmentRows.read(b.copy(15, n - 15).build(1, null)),
        SegmentRows.read(again.build(1, null)));
  }

  static List<Integer> rows(ImmutableRoaringBitmap b) {
    List<Integer> out = new java.util.ArrayList<>();
    b.forEach((int i) -> out.add(i));
    return out;
  }
}
