package dev.chartwell.engine.internal.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chartwell.engine.Engine;
import dev.chartwell.engine.Event;
import dev.chartwell.engine.Source;
import dev.chartwell.engine.SourceSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A source copied while it takes appends and seals: the copy, opened as an engine folder, holds
 * exactly the events the copy states, at least every event acknowledged before the capture and none
 * appended after it.
 */
class SourceBackupTest {
  @TempDir Path dir;

  @RepeatedTest(5)
  void aCopyDuringAppendsHoldsExactlyWhatItStates() throws Exception {
    Path live = dir.resolve("live");
    AtomicLong started = new AtomicLong();
    AtomicLong acknowledged = new AtomicLong();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    AtomicBoolean stop = new AtomicBoolean();
    SourceBackup.Copied copied;
    long ackedBefore;
    long startedAfter;
    Path copy = dir.resolve("copy");
    String id;
    try (Engine engine = Engine.builder().dataDirectory(live).segmentRows(100).build()) {
      Source logs = engine.createSource(SourceSpec.log("logs").build());
      id = logs.id();
      Thread writer =
          new Thread(
              () -> {
                try {
                  while (!stop.get()) {
                    long n = started.getAndIncrement();
                    logs.append(new Event(1_700_000_000_000L + n, Map.of("n", n, "Body", "e")));
                    acknowledged.incrementAndGet();
                  }
                } catch (Throwable e) {
                  failure.set(e);
                }
              });
      writer.start();
      while (acknowledged.get() < 1_000) {
        Thread.onSpinWait();
      }
      ackedBefore = acknowledged.get();
      Path sourceDir = live.resolve("sources").resolve(id);
      try (SourceBackup b = SourceBackup.capture(sourceDir).orElseThrow()) {
        startedAfter = started.get();
        copied = b.writeTo(copy.resolve("sources").resolve(id), copyInto(copy));
      }
      stop.set(true);
      writer.join();
    }
    assertEquals(null, failure.get());
    assertTrue(copied.events() >= ackedBefore, copied + " holds fewer than " + ackedBefore);
    assertTrue(copied.events() <= startedAfter, copied + " holds more than " + startedAfter);
    assertTrue(copied.segments().size() > 0, "sealed segments were copied");
    try (Engine restored = Engine.builder().dataDirectory(copy).segmentRows(100).build()) {
      assertEquals(copied.events(), restored.source(id).orElseThrow().stats().rows());
    }
  }

  /**
   * Under a disk limit the source drops its oldest segment files all the time, also while they are
   * copied: the copy still opens whole, with exactly the events it states.
   */
  @RepeatedTest(3)
  void aCopyWhileSegmentsAreDroppedOpensWithWhatItStates() throws Exception {
    Path live = dir.resolve("live");
    Path copy = dir.resolve("copy");
    AtomicBoolean stop = new AtomicBoolean();
    AtomicLong appended = new AtomicLong();
    SourceBackup.Copied copied;
    String id;
    try (Engine engine =
        Engine.builder().dataDirectory(live).segmentRows(100).maxDiskBytes(30_000).build()) {
      Source logs = engine.createSource(SourceSpec.log("logs").build());
      id = logs.id();
      Thread writer =
          new Thread(
              () -> {
                for (long n = 0; !stop.get(); n++) {
                  logs.append(new Event(1_700_000_000_000L + n, Map.of("n", n, "Body", "e" + n)));
                  appended.incrementAndGet();
                }
              });
      writer.start();
      while (appended.get() < 2_000) {
        Thread.onSpinWait();
      }
      try (SourceBackup b =
          SourceBackup.capture(live.resolve("sources").resolve(id)).orElseThrow()) {
        Thread.sleep(50); // the source drops what the capture holds open
        copied = b.writeTo(copy.resolve("sources").resolve(id), copyInto(copy));
      }
      stop.set(true);
      writer.join();
    }
    try (Engine restored = Engine.builder().dataDirectory(copy).segmentRows(100).build()) {
      assertEquals(copied.events(), restored.source(id).orElseThrow().stats().rows());
    }
  }

  @Test
  void aFolderWithoutAManifestIsNotCaptured() throws Exception {
    Files.createDirectories(dir.resolve("s"));
    assertEquals(Optional.empty(), SourceBackup.capture(dir.resolve("s")));
  }

  /** Segment files go straight into the copy's own segments folder. */
  static SourceBackup.SegmentSink copyInto(Path engineDir) {
    return (sourceId, entry, fingerprint, livePath, open) -> {
      assertEquals(16, fingerprint.length());
      Path segments = engineDir.resolve("sources").resolve(sourceId).resolve("segments");
      OwnerOnly.createDirectories(segments);
      SourceBackup.copyPrefix(open, entry.length(), segments.resolve(entry.file()));
    };
  }
}
