package dev.chartwell.engine;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One engine per data directory, whoever asks and however often: a refused open (in this process or
 * in another) never loosens the lock of the engine that holds the directory, never touches a file
 * in it, and says who holds it. The scenario of issue 36: a refused second open in the same process
 * used to close a channel on {@code engine.lock}, which released the process's lock on it (POSIX
 * locks belong to the process, and any close drops them), so that another process got in, deleted
 * the live engine's unlisted segment files and acknowledged events were lost.
 */
class DataDirectoryLockTest {
  static final long T0 = 1_767_225_600_000L; // 2026-01-01T00:00:00Z
  static final long PID = ProcessHandle.current().pid();

  @TempDir Path tmp;

  private static Engine open(Path dir) {
    return Engine.builder()
        .dataDirectory(dir)
        .segmentRows(1_000) // seals all the time: temporary and unlisted files come and go
        .workerThreads(2)
        .reporter(line -> {})
        .build();
  }

  private static SourceSpec spec() {
    return new SourceSpec(
        "logs",
        "logs",
        SourceKind.LOG,
        "Timestamp",
        "Body",
        "Body",
        List.of(new ColumnSpec("n", ColumnType.LONG)));
  }

  private static List<Event> batch(long first, int n) {
    List<Event> out = new ArrayList<>(n);
    for (long i = first; i < first + n; i++) {
      out.add(new Event(T0 + i, Map.of("Body", "event " + i, "n", i)));
    }
    return out;
  }

  @Test
  void noOpenElsewhereLosesAnAcknowledgedEvent() throws Exception {
    Path dir = tmp.resolve("data");
    Engine a = open(dir);
    Source logs = a.createSource(spec());
    AtomicLong acknowledged = new AtomicLong();
    AtomicBoolean stop = new AtomicBoolean();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Thread ingest =
        new Thread(
            () -> {
              try {
                long next = 0;
                while (!stop.get()) {
                  AppendResult r = logs.appendBatch(batch(next, 100)); // fsync: request
                  acknowledged.addAndGet(r.accepted());
                  next += 100;
                }
              } catch (Throwable t) {
                failure.set(t);
              }
            },
            "ingest");
    ingest.start();
    awaitAtLeast(acknowledged, 3_000);

    RuntimeException sameProcess = assertThrows(RuntimeException.class, () -> open(dir));
    List<String> lines = runChild(dir, 60, 15);

    stop.set(true);
    ingest.join(30_000);
    long acked = acknowledged.get();
    a.close();
    long found;
    try (Engine b = open(dir)) {
      found = b.source("logs").orElseThrow().stats().rows();
    }

    List<String> outcomes = lines.stream().filter(l -> l.startsWith("outcome ")).toList();
    String childPid = lines.isEmpty() ? "?" : lines.get(0);
    String real = dir.toRealPath().toString();
    assertAll(
        () -> assertNull(failure.get(), "the live engine kept accepting events: " + failure.get()),
        () -> assertTrue(acked > 3_000, "it acknowledged events all along: " + acked),
        () ->
            assertEquals(
                acked, found, "every acknowledged event is there after the restart, no fewer"),
        () -> assertEquals(60, outcomes.size(), "the other process tried 60 opens: " + lines),
        () -> {
          for (String o : outcomes) {
            assertTrue(o.startsWith("outcome refused "), childPid + ": " + o);
            assertTrue(o.contains(real), "names the directory: " + o);
            assertTrue(o.contains("pid " + PID), "names the holder's pid " + PID + ": " + o);
          }
        },
        () -> {
          String m = sameProcess.getMessage();
          assertTrue(m.contains(dir.toString()), "names the directory: " + m);
          assertTrue(m.contains("this process") && m.contains("pid " + PID), "the holder: " + m);
        });
  }

  @Test
  void aRefusedOpenInAnotherProcessTouchesNoFile() throws Exception {
    Path dir = tmp.resolve("data");
    try (Engine a = open(dir)) {
      Source logs = a.createSource(spec());
      for (long i = 0; i < 2_500; i += 500) {
        logs.appendBatch(batch(i, 500));
      }
      logs.awaitSealing();
      // What a running engine may have in its directory at any moment, and a restart clears.
      Path source = dir.resolve("sources").resolve("logs");
      Files.writeString(source.resolve("segments").resolve("99.seg.tmp"), "being written");
      Files.writeString(source.resolve("segments").resolve("98.seg"), "written, not yet listed");
      Files.writeString(source.resolve("manifest-99.tmp"), "being published");
      Files.createDirectories(dir.resolve("dropped").resolve("gone"));
      Files.writeString(dir.resolve("dropped").resolve("gone").resolve("x.seg"), "still read");
      assertThrows(RuntimeException.class, () -> open(dir)); // in this process: refused
      Map<String, String> before = files(dir);

      List<String> lines = runChild(dir, 3, 0);

      assertEquals(before, files(dir), "the other process touched nothing: " + lines);
      List<String> outcomes = lines.stream().filter(l -> l.startsWith("outcome ")).toList();
      assertEquals(3, outcomes.size(), lines.toString());
      for (String o : outcomes) {
        assertTrue(o.startsWith("outcome refused "), o);
        assertTrue(o.contains("pid " + PID), o);
      }
      assertEquals(2_500, logs.stats().rows());
    }
  }

  @Test
  void aSecondPathToTheSameDirectoryIsRefusedToo() throws Exception {
    Path dir = tmp.resolve("data");
    Path link = Files.createSymbolicLink(tmp.resolve("link"), Files.createDirectories(dir));
    try (Engine a = open(dir)) {
      StorageFailedException e = assertThrows(StorageFailedException.class, () -> open(link));
      assertTrue(e.getMessage().contains(dir.toRealPath().toString()), e.getMessage());
      assertTrue(e.getMessage().contains("this process"), e.getMessage());
    }
    open(link).close(); // released on close
  }

  @Test
  void aFailedOpenReleasesTheDirectory() throws Exception {
    Path dir = tmp.resolve("data");
    Files.createDirectories(dir);
    Files.writeString(dir.resolve("sources"), "a file where the sources' folder belongs");
    assertThrows(RuntimeException.class, () -> open(dir));
    Files.delete(dir.resolve("sources"));
    open(dir).close(); // the failed build let go of the directory
  }

  @Test
  void aDamagedLogIsSetAsideUnderItsLockAndTheNewLogIsLocked() throws Exception {
    Path dir = tmp.resolve("data");
    try (Engine a = open(dir)) {
      Source logs = a.createSource(spec());
      for (long i = 0; i < 3; i++) {
        logs.appendBatch(batch(i * 10, 10)); // three records in one log file
      }
    }
    Path log;
    try (Stream<Path> files = Files.list(dir.resolve("sources/logs/wal"))) {
      log = files.filter(p -> p.toString().endsWith(".log")).findFirst().orElseThrow();
    }
    try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(log.toFile(), "rw")) {
      f.seek(40); // inside the first record, good ones follow: not a torn tail
      int b = f.read();
      f.seek(40);
      f.write(b ^ 0x10);
    }
    try (Engine a = open(dir)) {
      Source logs = a.source("logs").orElseThrow();
      assertEquals(0, logs.stats().rows(), "the damaged log's events are lost, and reported");
      logs.appendBatch(batch(100, 5));
      StorageFailedException e = assertThrows(StorageFailedException.class, () -> open(dir));
      assertTrue(e.getMessage().contains("this process"), e.getMessage());
      try (Stream<Path> q = Files.list(dir.resolve("quarantine"))) {
        assertEquals(1, q.filter(p -> p.getFileName().toString().contains("wal")).count());
      }
    }
    try (Engine b = open(dir)) {
      assertEquals(5, b.source("logs").orElseThrow().stats().rows());
    }
  }

  /** Every file under a directory: its size and modification time, by relative path. */
  private static Map<String, String> files(Path dir) throws IOException {
    Map<String, String> out = new TreeMap<>();
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.toList()) {
        BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
        out.put(
            dir.relativize(p).toString(),
            a.isDirectory() ? "dir" : a.size() + " bytes, modified " + a.lastModifiedTime());
      }
    }
    return out;
  }

  private static void awaitAtLeast(AtomicLong n, long at) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (n.get() < at && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
  }

  /** Runs {@link OpenAttemptChild} in another JVM to its end; returns what it printed. */
  private static List<String> runChild(Path dir, int attempts, long pauseMillis) throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    ProcessBuilder pb =
        new ProcessBuilder(
            java,
            "-Xmx128m",
            "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1",
            "-cp",
            System.getProperty("java.class.path"),
            OpenAttemptChild.class.getName(),
            dir.toString(),
            Integer.toString(attempts),
            Long.toString(pauseMillis));
    pb.redirectError(ProcessBuilder.Redirect.DISCARD); // its own logging, whatever it is
    Process child = pb.start();
    List<String> lines = new ArrayList<>();
    try (BufferedReader in =
        new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        lines.add(line);
      }
    } finally {
      if (!child.waitFor(60, TimeUnit.SECONDS)) {
        child.destroyForcibly();
      }
    }
    return lines;
  }
}
