package dev.chartwell.engine.internal.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import dev.chartwell.engine.AggFn;
import dev.chartwell.engine.ChartQuery;
import dev.chartwell.engine.ChartResult;
import dev.chartwell.engine.Engine;
import dev.chartwell.engine.Event;
import dev.chartwell.engine.Granularity;
import dev.chartwell.engine.Series;
import dev.chartwell.engine.Source;
import dev.chartwell.engine.SourceSpec;
import dev.chartwell.engine.internal.segment.SegmentBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The head's parts: they cover the head's rows in order, stay few, and rebuild each row only a
 * logarithmic number of times; and queries over a head grown between them answer as a naive count
 * of every event appended.
 */
class HeadPartsProperties {
  private static final long T0 = 1_700_000_000_000L;

  @Test
  void settledPartsCoverTheHeadInTiersAndRebuildEachRowFewTimes() {
    qt().withExamples(300)
        .forAll(lists().of(integers().between(1, 5_000)).ofSizeBetween(1, 200))
        .checkAssert(
            deltas -> {
              HeadParts parts = HeadParts.none(new SegmentBuilder(16));
              int rows = 0;
              long built = 0;
              for (int delta : deltas) {
                rows += delta;
                int from = parts.settleFrom(rows);
                assertTrue(from <= parts.settledRows(), "a part starts past the rows covered");
                // The parts it takes in (whose token indexes it merges) are those from its start.
                int absorbed = parts.settledSegments(from, parts.settledRows()).size();
                int kept = parts.settled() - absorbed;
                assertEquals(kept == 0 ? 0 : parts.parts().get(kept - 1).to(), from);
                built += rows - from;
                parts = parts.settle(new HeadParts.Part(from, rows, null));
                assertCovers(parts, rows);
                assertEquals(parts.parts().size(), parts.settled(), "no tails");
              }
              // Each rebuild raises a row's tier, so a row is built at most (top tier + 2) times.
              assertTrue(
                  built <= (long) rows * (tier(rows) + 2),
                  "built " + built + " rows for a head of " + rows);
            });
  }

  /**
   * Queries add tails while a build ahead runs on the parts as they were when it started: whatever
   * the interleaving, the parts cover a prefix of the head in order, the settled ones in tiers, and
   * a settled part always fits where it was meant to go.
   */
  @Test
  void tailsAndSettledPartsBuiltFromOlderStatesStillCoverTheHead() {
    qt().withExamples(300)
        .forAll(
            lists().of(integers().between(1, 3_000)).ofSizeBetween(1, 120),
            lists().of(integers().between(0, 3)).ofSizeBetween(120, 120))
        .checkAssert(
            (deltas, tailsDuringBuild) -> {
              HeadParts parts = HeadParts.none(new SegmentBuilder(16));
              int rows = 0;
              for (int i = 0; i < deltas.size(); i++) {
                rows += deltas.get(i);
                if (i % 3 != 2) {
                  // a query: the rows beyond the parts become a tail
                  parts = parts.withTail(new HeadParts.Part(parts.rows(), rows, null));
                  assertCovers(parts, rows);
                  continue;
                }
                // a build ahead, with tails added by queries while it runs
                int builtTo = rows;
                int from = parts.settleFrom(builtTo);
                for (int t = 0; t < tailsDuringBuild.get(i); t++) {
                  rows += 1 + t * 997 % 2_000;
                  parts = parts.withTail(new HeadParts.Part(parts.rows(), rows, null));
                }
                HeadParts settled = parts.settle(new HeadParts.Part(from, builtTo, null));
                assertTrue(settled != null, "the settled part fits: " + parts);
                parts = settled;
                assertCovers(parts, rows);
                assertEquals(builtTo, parts.settledRows(), "settled up to the rows built");
              }
              assertTrue(
                  parts.settled() <= (HeadParts.FAN_IN - 1) * (tier(rows) + 1),
                  "few settled parts: " + parts);
            });
  }

  /**
   * New rows settle as parts of their own while merges run on the parts as they were when each
   * started, with tails added by queries meanwhile: the parts always cover a prefix of the head in
   * order, every merge fits where it was meant to go, the settled parts are in tiers once no merge
   * is due, and each row is built a logarithmic number of times.
   */
  @Test
  void newRowsSettleWhileMergesRunAndTheMergesRestoreTheTiers() {
    qt().withExamples(300)
        .forAll(
            lists().of(integers().between(1, 3_000)).ofSizeBetween(1, 150),
            lists().of(integers().between(0, 4)).ofSizeBetween(150, 150))
        .checkAssert(
            (deltas, settlesDuringMerge) -> {
              HeadParts parts = HeadParts.none(new SegmentBuilder(16));
              int rows = 0;
              long built = 0;
              int step = 0;
              for (int i = 0; i < deltas.size(); i++) {
                rows += deltas.get(i);
                parts = parts.settle(new HeadParts.Part(parts.settledRows(), rows, null));
                built += deltas.get(i);
                assertConsecutive(parts, rows);
                // a merge, while new rows settle and queries add tails
                HeadParts.Merge merge = parts.merge();
                if (merge == null) {
                  continue;
                }
                int from = merge.from();
                int to = merge.to();
                assertTrue(from < to && to <= parts.settledRows(), "settled parts: " + parts);
                assertTrue(parts.settledSegments(from, to).size() > 1, "parts to merge");
                for (int k = 0; k < settlesDuringMerge.get(i) && i + 1 < deltas.size(); k++) {
                  rows += 1 + (step++ * 7919) % 1_500;
                  if (k % 2 == 0) {
                    parts = parts.withTail(new HeadParts.Part(parts.rows(), rows, null));
                  } else {
                    built += rows - parts.settledRows();
                    parts = parts.settle(new HeadParts.Part(parts.settledRows(), rows, null));
                  }
                }
                HeadParts merged = parts.settle(new HeadParts.Part(from, to, null));
                assertTrue(merged != null, "the merge fits: " + parts);
                int settledBefore = parts.settledRows();
                parts = merged;
                built += to - from;
                assertConsecutive(parts, rows);
                assertEquals(settledBefore, parts.settledRows(), "rows settled meanwhile stay");
              }
              // The merges that are due, run one after the other, restore the tiers.
              for (HeadParts.Merge m = parts.merge(); m != null; m = parts.merge()) {
                built += m.to() - m.from();
                parts = parts.settle(new HeadParts.Part(m.from(), m.to(), null));
              }
              assertCovers(parts, rows);
              assertTrue(
                  built <= (long) rows * (tier(rows) + 3),
                  "built " + built + " rows for a head of " + rows);
            });
  }

  /** The parts are consecutive from row 0, non-empty, and end at most at {@code rows}. */
  private static void assertConsecutive(HeadParts parts, int rows) {
    int at = 0;
    for (HeadParts.Part p : parts.parts()) {
      assertEquals(at, p.from(), "parts are consecutive: " + parts);
      assertTrue(p.to() > p.from(), "no empty part");
      at = p.to();
    }
    assertTrue(at <= rows, "no part past the head's rows");
  }

  /**
   * Checks that the parts are consecutive from row 0 up to at most {@code rows}, and that the
   * settled ones never rise in tier and hold fewer than {@link HeadParts#FAN_IN} parts per tier.
   */
  private static void assertCovers(HeadParts parts, int rows) {
    int at = 0;
    int tier = Integer.MAX_VALUE;
    Map<Integer, Integer> perTier = new TreeMap<>();
    List<HeadParts.Part> all = parts.parts();
    for (int i = 0; i < all.size(); i++) {
      HeadParts.Part p = all.get(i);
      assertEquals(at, p.from(), "parts are consecutive: " + parts);
      assertTrue(p.to() > p.from(), "no empty part");
      at = p.to();
      if (i < parts.settled()) {
        int t = tier(p.to() - p.from());
        assertTrue(t <= tier, "tiers never rise from older parts to newer: " + parts);
        tier = t;
        perTier.merge(t, 1, Integer::sum);
      }
    }
    assertTrue(at <= rows, "no part past the head's rows");
    for (int n : perTier.values()) {
      assertTrue(n < HeadParts.FAN_IN, "at most FAN_IN - 1 parts per tier: " + parts);
    }
  }

  @Test
  void queriesBetweenAppendsCountEveryEventAndTheLastValueArrivedLast() {
    qt().withExamples(40)
        .forAll(lists().of(integers().between(1, 300)).ofSizeBetween(1, 30))
        .checkAssert(
            batches -> {
              try (Engine engine = Engine.builder().segmentRows(1 << 20).build()) {
                Source source = engine.createSource(SourceSpec.logs("logs"));
                Map<String, Long> expected = new TreeMap<>();
                int n = 0;
                for (int size : batches) {
                  List<Event> batch = new ArrayList<>();
                  for (int i = 0; i < size; i++, n++) {
                    // Few distinct times: equal timestamps across parts, and out of order.
                    long ts = T0 + (n * 7919L) % 5;
                    String service = "svc-" + (n % 3);
                    batch.add(new Event(ts, Map.of("ServiceName", service, "v", (long) n)));
                    expected.merge(service, 1L, Long::sum);
                  }
                  source.appendBatch(batch);
                  assertEquals(expected, counts(engine, source));
                  assertEquals(
                      (double) (n - 1), lastValueAt(engine, source, T0 + ((n - 1) * 7919L) % 5));
                }
              }
            });
  }

  private static Map<String, Long> counts(Engine engine, Source source) {
    Series count =
        new Series(source.id(), AggFn.COUNT, null, null, null, null, List.of("ServiceName"));
    ChartResult r =
        engine.query(
            new ChartQuery(
                T0, T0 + 60_000, Granularity.named("1m").orElseThrow(), List.of(count), null));
    Map<String, Long> out = new TreeMap<>();
    for (ChartResult.Row row : r.rows()) {
      out.merge(row.group().get(0), row.values().get(0).longValue(), Long::sum);
    }
    return out;
  }

  /** The last value of {@code v} among the events at {@code ts}: the one appended last. */
  private static double lastValueAt(Engine engine, Source source, long ts) {
    ChartResult r =
        engine.query(
            new ChartQuery(
                ts,
                ts,
                Granularity.named("1m").orElseThrow(),
                List.of(Series.of(source.id(), AggFn.LAST_VALUE, "v", null)),
                null));
    return r.rows().get(0).values().get(0).doubleValue();
  }

  private static int tier(int rows) {
    return HeadParts.tier(rows);
  }
}
