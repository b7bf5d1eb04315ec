package dev.chartwell.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chartwell.engine.internal.segment.Segment;
import dev.chartwell.engine.internal.source.SourceSnapshot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An engine with a data directory: what it acknowledged is there again after a restart. */
class DurableEngineTest {
  static final long T0 = 1_767_225_600_000L; // 2026-01-01T00:00:00Z

  @TempDir Path dir;

  private final List<String> reports = new ArrayList<>();

  Engine open() {
    return open(FsyncPolicy.REQUEST);
  }

  Engine open(FsyncPolicy policy) {
    return Engine.builder()
        .dataDirectory(dir)
        .fsyncPolicy(policy)
        .segmentRows(100)
        .workerThreads(2)
        .reporter(reports::add)
        .build();
  }

  static SourceSpec spec(String id) {
    return new SourceSpec(
        id,
        "logs " + id,
        SourceKind.LOG,
        "Timestamp",
        "Body",
        "Body",
        List.of(new ColumnSpec("status", ColumnType.LONG), new ColumnSpec("ok", ColumnType.BOOL)));
  }

  /** Event {@code i}: every column type, and dynamic columns that appear part way. */
  static Event event(long i) {
    Map<String, Object> f = new LinkedHashMap<>();
    f.put("seq", i);
    f.put("Body", "request " + i + (i % 7 == 0 ? " timeout" : " ok") + " é");
    f.put("status", i % 5 == 0 ? 500L : 200L);
    if (i % 3 != 0) {
      f.put("ok", i % 2 == 0);
    }
    f.put("Duration", i * 0.25);
    if (i > 150) {
      f.put("late.column", "v" + (i % 4)); // a column born after the first seals
    }
    if (i % 11 == 0) {
      f.put("host", i % 2 == 0 ? "a" : "b");
    }
    return new Event(T0 + i * 1000, f);
  }

  static List<Event> events(long from, long to) {
    List<Event> out = new ArrayList<>();
    for (long i = from; i < to; i++) {
      out.add(event(i));
    }
    return out;
  }

  /** Every row of a source, sorted by seq, as plain maps. */
  static List<Map<String, Object>> rows(Source s) {
    List<Map<String, Object>> out = new ArrayList<>();
    try (SourceSnapshot snap = s.core().snapshot()) {
      for (Segment seg : snap.segments()) {
        assertNull(seg.verify(), "every segment verifies");
        out.addAll(dev.chartwell.engine.internal.segment.SegmentRows.read(seg));
      }
    }
    out.sort((a, b) -> Long.compare((Long) a.get("seq"), (Long) b.get("seq")));
    return out;
  }

  static ChartResult chart(Engine engine, String id) {
    Granularity g = Granularity.named("1m").orElseThrow();
    return engine.query(
        new ChartQuery(
            T0,
            T0 + 10_000_000,
            g,
            List.of(
                Series.of(id, AggFn.COUNT, null, "timeout"),
                Series.of(id, AggFn.SUM, "Duration", "status:500"),
                Series.of(id, AggFn.COUNT_DISTINCT, "late.column", null),
                Series.of(id, AggFn.MAX, "seq", "ok:true")),
            null));
  }

  @Test
  void everyColumnTypeAndDynamicColumnsSurviveARestart() {
    List<Map<String, Object>> before;
    ChartResult chartBefore;
    try (Engine engine = open()) {
      Source s = engine.createSource(spec("s1"));
      s.appendBatch(events(0, 120));
      for (Event e : events(120, 270)) {
        s.append(e);
      }
      s.awaitSealing();
      assertTrue(s.core().sealedSegments().size() >= 2, "sealed segments and a head");
      assertTrue(s.core().sealedSegments().stream().allMatch(seg -> seg.file() != null));
      before = rows(s);
      chartBefore = chart(engine, "s1");
      assertEquals(270, before.size());
    }
    try (Engine engine = open()) {
      Source s = engine.source("s1").orElseThrow();
      assertEquals(spec("s1"), s.spec());
      assertEquals(before, rows(s));
      assertEquals(chartBefore, chart(engine, "s1"));
      assertEquals(
          List.of("Body", "status", "ok", "seq", "Duration", "host", "late.column"),
          s.core().schema().columns().stream().map(c -> c.name()).toList());
      // and it goes on: appends continue after the replayed head
      s.appendBatch(events(270, 400));
      assertEquals(400, rows(s).size());
    }
    try (Engine engine = open()) {
      assertEquals(400, rows(engine.source("s1").orElseThrow()).size());
    }
  }

  @Test
  void everyFsyncPolicyKeepsWhatAGracefulCloseSaw() {
    for (FsyncPolicy policy :
        List.of(FsyncPolicy.REQUEST, FsyncPolicy.interval(5), FsyncPolicy.NEVER)) {
      String id = "p" + policy.mode().ordinal();
      try (Engine engine = open(policy)) {
        engine.createSource(spec(id)).appendBatch(events(0, 250));
      }
      try (Engine engine = open(policy)) {
        assertEquals(events(0, 250).size(), rows(engine.source(id).orElseThrow()).size(), id);
      }
    }
  }

  @Test
  void emptySourcesAndSourcesWithOnlyAHeadComeBack() {
    try (Engine engine = open()) {
      engine.createSource(spec("empty"));
      engine.createSource(spec("head")).appendBatch(events(0, 10));
    }
    try (Engine engine = open()) {
      assertEquals(0, rows(engine.source("empty").orElseThrow()).size());
      assertEquals(10, rows(engine.source("head").orElseThrow()).size());
      assertEquals(2, engine.sources().size());
    }
  }

  @Test
  void statsCountTheSegmentFilesAndTheLogOnDisk() throws IOException {
    try (Engine engine = open()) {
      Source s = engine.createSource(spec("disk"));
      s.appendBatch(events(0, 250));
      s.awaitSealing();
      var st = engine.stats().sources().get(0);
      Path folder = dir.resolve("sources").resolve("disk");
      long segments = filesUnder(folder.resolve("segments"));
      long log = filesUnder(folder.resolve("wal"));
      assertEquals(2, st.segments());
      assertTrue(segments > 0 && log > 0, segments + " " + log);
      assertEquals(segments + log, st.diskBytes());
      assertEquals(log, st.logBytes());
      assertEquals(st.diskBytes(), engine.stats().diskBytes());
      assertEquals(250, st.acceptedEvents());
    }
  }

  private static long filesUnder(Path folder) throws IOException {
    try (Stream<Path> files = Files.list(folder)) {
      long total = 0;
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        total += f.getFileName().toString().endsWith(".lock") ? 0 : Files.size(f);
      }
      return total;
    }
  }

  @Test
  void aDroppedSourceIsGoneWithItsFilesAndStaysGone() throws IOException {
    try (Engine engine = open()) {
      Source s = engine.createSource(spec("gone"));
      s.appendBatch(events(0, 250));
      s.awaitSealing();
      engine.createSource(spec("kept")).appendBatch(events(0, 5));
      assertTrue(Files.exists(dir.resolve("sources/gone")));
      assertTrue(engine.dropSource("gone"));
      assertFalse(Files.exists(dir.resolve("sources/gone")), "no query holds its files");
    }
    try (Engine engine = open()) {
      assertTrue(engine.source("gone").isEmpty());
      assertEquals(5, rows(engine.source("kept").orElseThrow()).size());
      engine.createSource(spec("gone")); // the id can be used again
    }
  }

  @Test
  void aDroppedSourceKeepsItsFilesUntilTheLastQueryLetsGo() throws IOException {
    try (Engine engine = open()) {
      Source s = engine.createSource(spec("q"));
      s.appendBatch(events(0, 250));
      s.awaitSealing();
      try (SourceSnapshot snap = s.core().snapshot()) {
        engine.dropSource("q");
        assertFalse(Files.exists(dir.resolve("sources/q")), "the id is free at once");
        assertEquals(2, files(dir.resolve("dropped"), ".seg").size(), "a snapshot reads them");
        engine.createSource(spec("q")).append(event(1));
        long rows = 0;
        for (Segment seg : snap.segments()) {
          assertNull(seg.verify());
          rows += dev.chartwell.engine.internal.segment.SegmentRows.read(seg).size();
        }
        assertEquals(250, rows);
      }
      assertEquals(List.of(), files(dir.resolve("dropped"), ".seg"), "deleted once released");
      assertEquals(1, rows(engine.source("q").orElseThrow()).size());
    }
  }

  @Test
  void aSecondEngineCannotOpenTheSameDirectory() {
    try (Engine engine = open()) {
      StorageFailedException e = assertThrows(StorageFailedException.class, this::open);
      assertTrue(e.getMessage().contains("in use by another engine"), e.getMessage());
    }
  }

  @Test
  void idsThatCannotNameAFolderAreRefused() {
    try (Engine engine = open()) {
      for (String id : List.of("../x", "a/b", ".hidden", "", "x".repeat(200))) {
        assertThrows(IllegalArgumentException.class, () -> engine.createSource(spec(id)), id);
      }
    }
  }

  @Test
  void aDirectoryWithoutManifestIsCleanedUpAtStart() throws IOException {
    Files.createDirectories(dir.resolve("sources/halfmade/wal"));
    try (Engine engine = open()) {
      assertTrue(engine.sources().isEmpty());
    }
    assertFalse(Files.exists(dir.resolve("sources/halfmade")));
    assertTrue(reports.stream().anyMatch(r -> r.contains("halfmade")), reports.toString());
  }

  @Test
  void startUpSaysWhatItOpened() {
    try (Engine engine = open()) {
      engine.createSource(spec("s")).appendBatch(events(0, 250));
    }
    reports.clear();
    try (Engine engine = open()) {
      assertEquals(250, rows(engine.source("s").orElseThrow()).size());
    }
    assertTrue(
        reports.stream().anyMatch(r -> r.startsWith("opening 1 sources")), reports.toString());
    assertTrue(
        reports.stream().anyMatch(r -> r.startsWith("opened 250 events")), reports.toString());
  }

  static List<Path> files(Path root, String suffix) throws IOException {
    try (Stream<Path> walk = Files.walk(root)) {
      return walk.filter(p -> p.getFileName().toString().endsWith(suffix)).sorted().toList();
    }
  }

  @Test
  void theDiskSizeCountsSegmentFilesAndLogs() {
    try (Engine engine = open()) {
      Source s = engine.createSource(spec("s"));
      s.appendBatch(events(0, 250));
      s.awaitSealing();
      long segments = 0;
      for (Segment seg : s.core().sealedSegments()) {
        segments += seg.bytes();
      }
      assertTrue(engine.diskBytes() > segments, "logs count too");
      assertNotNull(s.core().sealedSegments().get(0).file());
    }
  }
}
