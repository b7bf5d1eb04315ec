package dev.chartwell.engine.internal.segment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.quicktheories.QuickTheory.qt;

import dev.chartwell.testing.Gens;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.quicktheories.api.Pair;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;
import org.roaringbitmap.buffer.MutableRoaringBitmap;

/**
 * A query's part whose columns are built as they are read ({@link SegmentBuilder#buildForQuery})
 * against the same rows built at once: the same rows, columns, token index and time range,
 * whichever column is read first.
 */
class LazyColumnsProperties {
  private static final String BODY = "Body";

  /** One random row: time, level (few values), status, duration, ok, body; any may be absent. */
  record Row(long ts, String level, Long status, Double duration, Boolean ok, String body) {}

  @Test
  void aPartBuiltAsReadEqualsThePartBuiltAtOnce() {
    qt().withExamples(300)
        .forAll(rows(), Gens.ints(0, 6))
        .checkAssert(LazyColumnsProperties::check);
  }

  @Test
  void eachColumnIsBuiltOnceAndAnAbsentOneIsRemembered() {
    AtomicInteger builds = new AtomicInteger();
    LazyColumns columns =
        new LazyColumns(
            List.of("a", "b"),
            name -> {
              builds.incrementAndGet();
              return name.equals("a")
                  ? new BoolColumn(
                      MutableRoaringBitmap.bitmapOf(0), MutableRoaringBitmap.bitmapOf(), 1)
                  : null;
            });
    Column a = columns.get("a");
    assertSame(a, columns.get("a"));
    assertNull(columns.get("b"));
    assertNull(columns.get("b"));
    assertNull(columns.get("nope"));
    assertEquals(2, builds.get());
    assertEquals(Map.of("a", a), columns.all());
    assertEquals(2, builds.get());
  }

  @Test
  void queriesReadingOnePartAtOnceShareEachColumn() throws Exception {
    SegmentBuilder b = SegmentBuilderTest.builder();
    for (int i = 0; i < 5_000; i++) {
      b.append(i % 97, new Object[] {"l" + i % 3, (long) i, i * 0.5, i % 2 == 0, "row " + i});
    }
    Segment lazy = b.buildForQuery(1, 0, BODY);
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<Column>> reads = new ArrayList<>();
      for (int t = 0; t < 16; t++) {
        String name = List.of("level", "status", "duration", "ok", BODY).get(t % 5);
        reads.add(pool.submit(() -> lazy.column(name)));
      }
      for (int t = 0; t < 16; t++) {
        String name = List.of("level", "status", "duration", "ok", BODY).get(t % 5);
        assertSame(lazy.column(name), reads.get(t).get());
      }
    } finally {
      pool.shutdown();
    }
    assertEquals(SegmentRows.read(b.build(1, 0, BODY)), SegmentRows.read(lazy));
  }

  /** Builds the rows both ways; reads the lazy part's column {@code first} first (5: the index). */
  private static void check(List<Row> rows, int first) {
    SegmentBuilder b = SegmentBuilderTest.builder();
    for (Row r : rows) {
      b.append(r.ts(), new Object[] {r.level(), r.status(), r.duration(), r.ok(), r.body()});
    }
    Segment eager = b.copy().build(7, 3, BODY);
    Segment lazy = b.copy().buildForQuery(7, 3, BODY);
    List<String> names = List.of("level", "status", "duration", "ok", BODY);
    if (first < names.size()) {
      assertEquals(present(eager.column(names.get(first))), present(lazy.column(names.get(first))));
    } else {
      assertEquals(tokens(eager.tokenIndex()), tokens(lazy.tokenIndex()));
    }
    assertEquals(eager.rows(), lazy.rows());
    assertEquals(eager.minTimestamp(), lazy.minTimestamp());
    assertEquals(eager.maxTimestamp(), lazy.maxTimestamp());
    assertEquals(eager.orderKey(0), lazy.orderKey(0));
    assertEquals(eager.columns().keySet(), lazy.columns().keySet());
    for (String name : names) {
      assertEquals(present(eager.column(name)), present(lazy.column(name)), name);
    }
    assertEquals(SegmentRows.read(eager), SegmentRows.read(lazy));
    assertEquals(tokens(eager.tokenIndex()), tokens(lazy.tokenIndex()));
    assertEquals(eager.bytes(), lazy.bytes());
  }

  private static boolean present(Column c) {
    return c != null;
  }

  private static Map<String, List<Integer>> tokens(TokenIndex index) {
    Map<String, List<Integer>> out = new TreeMap<>();
    if (index != null) {
      for (int id = 0; id < index.tokens().size(); id++) {
        out.put(index.tokens().get(id), SegmentBuilderTest.rows(index.postings().get(id)));
      }
    }
    return out;
  }

  private static Gen<List<Row>> rows() {
    Gen<String> level = maybe(Gens.of("info", "error"));
    Gen<String> body =
        maybe(Gens.oneOf(Gens.of("GET /a 200", "Timeout: x", ""), Gens.strings("aB1 -/é", 0, 9)));
    Gen<Long> status = maybe(Gens.longs(100, 600));
    Gen<Double> duration = maybe(Gens.ints(-5, 5).map(i -> i * 0.5));
    Gen<Boolean> ok = maybe(Gens.of(true, false));
    Gen<Row> row =
        Gens.longs(0, 20)
            .zip(level, status, (ts, l, s) -> new Object[] {ts, l, s})
            .zip(
                duration,
                ok,
                body,
                (a, d, o, bd) -> new Row((Long) a[0], (String) a[1], (Long) a[2], d, o, bd));
    return Gens.listOf(row, 0, 40);
  }

  /** The values of {@code g}, or absent one time in five. */
  private static <T> Gen<T> maybe(Gen<T> g) {
    return Generate.frequency(Pair.of(4, g), Pair.of(1, Generate.constant((T) null)));
  }
}
