package dev.chartwell.engine;

import static dev.chartwell.engine.DurableEngineTest.T0;
import static dev.chartwell.engine.DurableEngineTest.chart;
import static dev.chartwell.engine.DurableEngineTest.event;
import static dev.chartwell.engine.DurableEngineTest.spec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Size-tiered merging of small segments: a source sealed after every few events keeps a bounded
 * number of segments, answers exactly as a source never sealed, sees each event once while merges
 * run, and keeps its merged state across a restart.
 */
class SegmentMergeTest {
  private static final int SEGMENT_ROWS = 64;

  @TempDir Path dir;

  /** Small segments: up to 3 per tier (tiers 0 to 2 below 16 rows), the rest over 16 rows each. */
  private static long bound(long rows) {
    return 3L * (SegmentMergeTest.tier(SEGMENT_ROWS / 4) + 1) + rows / (SEGMENT_ROWS / 4 + 1);
  }

  private static int tier(int rows) {
    return (31 - Integer.numberOfLeadingZeros(rows)) / 2;
  }

  private Engine open() {
    return Engine.builder()
        .dataDirectory(dir)
        .segmentRows(SEGMENT_ROWS)
        .workerThreads(2)
        .reporter(line -> {})
        .build();
  }

  private static List<Map<String, Object>> everything(Engine engine, String id) {
    List<Map<String, Object>> all = new ArrayList<>();
    for (int offset = 0; ; offset += 1000) {
      SearchResult page =
          engine.search(
              new SearchQuery(
                  id,
                  T0,
                  T0 + 10_000_000,
                  null,
                  null,
                  null,
                  SearchOrder.OLDEST_FIRST,
                  1000,
                  offset));
      all.addAll(page.rows());
      if (page.rows().size() < 1000) {
        return all;
      }
    }
  }

  @Test
  void aTrickleSourceKeepsABoundedNumberOfSegmentsAndAnswersAsIfNeverSealed() {
    try (Engine engine = open();
        Engine reference = Engine.builder().workerThreads(2).build()) {
      Source s = engine.createSource(spec("trickle"));
      Source r = reference.createSource(spec("trickle"));
      long i = 0;
      for (int round = 0; round < 400; round++) {
        int n = 1 + round % 3;
        for (int k = 0; k < n; k++, i++) {
          s.append(event(i));
          r.append(event(i));
        }
        s.core().seal(); // what an idle seal does to a source that trickles
        engine.mergeSmallSegments();
        int segments = s.core().sealedSegments().size();
        assertTrue(segments <= bound(i), "round " + round + ": " + segments + " segments");
      }
      assertEquals(i, s.stats().rows());
      assertEquals(chart(reference, "trickle"), chart(engine, "trickle"));
      assertEquals(everything(reference, "trickle"), everything(engine, "trickle"));
    }
  }

  @Test
  void queriesWhileMergesRunSeeEveryAcknowledgedEventOnce() throws Exception {
    try (Engine engine = open()) {
      Source s = engine.createSource(spec("busy"));
      AtomicLong acked = new AtomicLong();
      AtomicLong sent = new AtomicLong(); // an event is visible before its append returns
      AtomicBoolean done = new AtomicBoolean();
      AtomicReference<String> problem = new AtomicReference<>();
      ChartQuery count =
          new ChartQuery(
              T0,
              T0 + 10_000_000,
              Granularity.named("1h").orElseThrow(),
              List.of(Series.of("busy", AggFn.COUNT, null, null)),
              null);
      Thread reader =
          new Thread(
              () -> {
                while (!done.get() && problem.get() == null) {
                  long before = acked.get();
                  ChartResult result = engine.query(count);
                  long after = sent.get();
                  long seen = 0;
                  for (ChartResult.Row row : result.rows()) {
                    seen += row.values().get(0).longValue();
                  }
                  if (seen < before || seen > after) {
                    problem.set("saw " + seen + " events with " + before + " to " + after + " in");
                  }
                }
              });
      reader.start();
      for (long i = 0; i < 1500; i++) {
        sent.incrementAndGet();
        s.append(event(i));
        acked.incrementAndGet();
        if (i % 3 == 2) {
          s.core().seal();
        }
      }
      engine.mergeSmallSegments();
      done.set(true);
      reader.join();
      assertEquals(null, problem.get());
      assertTrue(s.core().sealedSegments().size() <= bound(1500));
    }
  }

  @Test
  void mergedSegmentsReplaceTheirInputsOnDiskAndSurviveARestart() throws IOException {
    ChartResult before;
    List<Map<String, Object>> events;
    int listed;
    try (Engine engine = open()) {
      Source s = engine.createSource(spec("kept"));
      for (long i = 0; i < 300; i++) {
        s.append(event(i));
        if (i % 2 == 1) {
          s.core().seal();
        }
      }
      s.core().seal();
      engine.mergeSmallSegments();
      before = chart(engine, "kept");
      events = everything(engine, "kept");
      listed = s.core().sealedSegments().size();
      assertTrue(listed <= bound(300), listed + " segments");
    }
    try (Stream<Path> files =
        Files.list(dir.resolve("sources").resolve("kept").resolve("segments"))) {
      assertEquals(listed, files.count(), "the inputs' files are gone");
    }
    try (Engine engine = open()) {
      assertEquals(300, engine.source("kept").orElseThrow().stats().rows());
      assertEquals(before, chart(engine, "kept"));
      assertEquals(events, everything(engine, "kept"));
    }
  }
}
