package dev.chartwell.engine;

import static dev.chartwell.engine.DurableEngineTest.events;
import static dev.chartwell.engine.DurableEngineTest.rows;
import static dev.chartwell.engine.DurableEngineTest.spec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chartwell.engine.internal.segment.Segment;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Damaged files are found, reported by name, set aside in {@code quarantine/}, and never served;
 * the rest of the data loads and answers.
 */
class StorageCorruptionTest {
  @TempDir Path tmp;

  private final List<String> reports = new ArrayList<>();

  private Engine open(Path dir) {
    return Engine.builder()
        .dataDirectory(dir)
        .segmentRows(100)
        .workerThreads(2)
        .reporter(reports::add)
        .build();
  }

  /** 250 events: two sealed segments of 100 and a head of 50; three manifests were published. */
  private Path filled() {
    Path dir = tmp.resolve("data");
    try (Engine engine = open(dir)) {
      Source s = engine.createSource(spec("s"));
      s.appendBatch(events(0, 250));
      s.awaitSealing();
      assertEquals(2, s.core().sealedSegments().size());
    }
    return dir;
  }

  private static List<Path> segmentFiles(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir.resolve("sources/s/segments"))) {
      return files.sorted().toList();
    }
  }

  private static long count(Engine engine) {
    ChartResult r =
        engine.query(
            new ChartQuery(
                DurableEngineTest.T0,
                DurableEngineTest.T0 + 1_000_000,
                Granularity.named("1d").orElseThrow(),
                List.of(Series.of("s", AggFn.COUNT, null, null)),
                null));
    return r.rows().stream().mapToLong(row -> row.values().get(0).longValue()).sum();
  }

  private static void flip(Path file, long offset) throws IOException {
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
      f.seek(offset);
      int b = f.read();
      f.seek(offset);
      f.write(b ^ 0x10);
    }
  }

  private List<Path> quarantined(Path dir) throws IOException {
    Path q = dir.resolve("quarantine");
    if (!Files.exists(q)) {
      return List.of();
    }
    try (Stream<Path> files = Files.list(q)) {
      return files.toList();
    }
  }

  @Test
  void aSegmentWithABadHeaderIsReportedAtStartAndSetAsideAndTheRestAnswers() throws IOException {
    Path dir = filled();
    Path first = segmentFiles(dir).get(0);
    flip(first, 3); // inside the magic
    try (Engine engine = open(dir)) {
      assertEquals(150, count(engine), "the second segment and the head");
    }
    String name = first.getFileName().toString();
    assertTrue(
        reports.stream().anyMatch(r -> r.contains(name) && r.contains("moved to")),
        reports.toString());
    assertEquals(1, quarantined(dir).size());
    assertTrue(quarantined(dir).get(0).getFileName().toString().contains(name));
    reports.clear();
    try (Engine engine = open(dir)) {
      assertEquals(150, count(engine));
    }
    assertTrue(
        reports.stream().noneMatch(r -> r.contains("moved to")),
        "reported once, then no longer listed: " + reports);
  }

  @Test
  void damagedContentIsFoundBeforeItsFirstUseAndNeverServed() throws Exception {
    Path dir = filled();
    Path second = segmentFiles(dir).get(1);
    flip(second, 200); // inside the column data: the header, footer and contents still verify
    try (Engine engine = open(dir)) {
      long n = count(engine);
      assertEquals(150, n, "the damaged segment's 100 events are not counted");
      // the source drops it into quarantine in the background
      // (the deadline only stops a hung test)
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (quarantined(dir).isEmpty() && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      assertEquals(1, engine.source("s").orElseThrow().core().sealedSegments().size());
      assertEquals(150, count(engine));
    }
    assertEquals(1, quarantined(dir).size());
    String name = second.getFileName().toString();
    assertTrue(
        reports.stream().anyMatch(r -> r.contains(name) && r.contains("checksum")),
        reports.toString());
    try (Engine engine = open(dir)) {
      assertEquals(150, count(engine));
      assertEquals(1, engine.source("s").orElseThrow().core().sealedSegments().size());
    }
  }

  @Test
  void theBackgroundVerifierFindsDamageNoQueryTouched() throws Exception {
    Path dir = filled();
    Path first = segmentFiles(dir).get(0);
    flip(first, 300);
    try (Engine engine = open(dir)) {
      Source s = engine.source("s").orElseThrow();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60); // a hung test only
      while (s.core().sealedSegments().size() == 2 && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      assertEquals(1, s.core().sealedSegments().size(), "the verifier dropped it: " + reports);
      for (Segment seg : s.core().sealedSegments()) {
        assertTrue(seg.isVerified());
      }
      // The file moves to quarantine just after the source lets go of it, on another thread.
      while (quarantined(dir).isEmpty() && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
    }
    assertEquals(1, quarantined(dir).size());
  }

  @Test
  void everyFlippedByteOfTheNewestManifestFallsBackToTheOneBeforeAndLosesNothing()
      throws IOException {
    Path original = filled();
    Path sourceDir = original.resolve("sources/s");
    Path newest;
    try (Stream<Path> files = Files.list(sourceDir)) {
      newest =
          files
              .filter(p -> p.getFileName().toString().startsWith("manifest-"))
              .max(Path::compareTo)
              .orElseThrow();
    }
    long length = Files.size(newest);
    for (long offset = 0; offset < length; offset++) {
      Path copy = tmp.resolve("copy-" + offset);
      copyTree(original, copy);
      flip(copy.resolve(original.relativize(newest)), offset);
      try (Engine engine = open(copy)) {
        Source s = engine.source("s").orElseThrow();
        assertEquals(events(0, 250).size(), rows(s).size(), "flipped byte " + offset);
      }
      deleteTree(copy);
    }
    assertTrue(
        reports.stream().anyMatch(r -> r.contains("does not verify")), "reported: " + reports);
  }

  @Test
  void aTornLogTailIsCutAtEveryByteOfTheLastRecord() throws IOException {
    Path original = tmp.resolve("torn");
    try (Engine engine = open(original)) {
      Source s = engine.createSource(spec("s"));
      s.appendBatch(events(0, 20));
      s.append(DurableEngineTest.event(20));
    }
    Path log;
    try (Stream<Path> files = Files.list(original.resolve("sources/s/wal"))) {
      log = files.filter(p -> p.toString().endsWith(".log")).findFirst().orElseThrow();
    }
    long full = Files.size(log);
    long lastRecord = lastRecordStart(original);
    assertTrue(lastRecord > 0 && lastRecord < full);
    for (long cut = lastRecord; cut < full; cut++) {
      Path copy = tmp.resolve("torn-" + cut);
      copyTree(original, copy);
      try (RandomAccessFile f =
          new RandomAccessFile(copy.resolve(original.relativize(log)).toFile(), "rw")) {
        f.setLength(cut);
      }
      try (Engine engine = open(copy)) {
        Source s = engine.source("s").orElseThrow();
        assertEquals(20, rows(s).size(), "cut at " + cut);
        s.append(DurableEngineTest.event(21)); // and appends continue after the cut
        assertEquals(21, rows(s).size());
      }
      deleteTree(copy);
    }
  }

  /** Where the last record of a one-file log starts: the size before the last append. */
  private long lastRecordStart(Path dir) throws IOException {
    Path probe = tmp.resolve("probe");
    try (Engine engine = open(probe)) {
      engine.createSource(spec("s")).appendBatch(events(0, 20));
    }
    try (Stream<Path> files = Files.list(probe.resolve("sources/s/wal"))) {
      return Files.size(files.filter(p -> p.toString().endsWith(".log")).findFirst().get());
    }
  }

  @Test
  void aSourceWhoseManifestsAllFailIsSetAsideAndTheOthersLoad() throws IOException {
    Path dir = tmp.resolve("two");
    try (Engine engine = open(dir)) {
      engine.createSource(spec("bad")).appendBatch(events(0, 10));
      engine.createSource(spec("good")).appendBatch(events(0, 10));
    }
    try (Stream<Path> files = Files.list(dir.resolve("sources/bad"))) {
      for (Path m :
          files.filter(p -> p.getFileName().toString().startsWith("manifest-")).toList()) {
        flip(m, 10);
      }
    }
    try (Engine engine = open(dir)) {
      assertTrue(engine.source("bad").isEmpty());
      assertEquals(10, rows(engine.source("good").orElseThrow()).size());
    }
    assertFalse(Files.exists(dir.resolve("sources/bad")));
    assertEquals(1, quarantined(dir).size());
  }

  static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> walk = Files.walk(from)) {
      for (Path p : walk.toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else if (!p.getFileName().toString().endsWith(".lock")) {
          Files.copy(p, target, StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
  }

  static void deleteTree(Path root) throws IOException {
    try (Stream<Path> walk = Files.walk(root)) {
      for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
