package dev.chartwell.engine;

import static dev.chartwell.engine.DurableEngineTest.events;
import static dev.chartwell.engine.DurableEngineTest.rows;
import static dev.chartwell.engine.DurableEngineTest.spec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A storage error is never ignored: the source refuses writes from then on, saying why, while
 * queries go on; what it acknowledged is there after a restart.
 */
class StorageFailureTest {
  @TempDir Path dir;

  @Test
  void aSegmentThatCannotBeWrittenStopsWritesButNotQueries() throws Exception {
    List<String> reports = new ArrayList<>();
    Path segments = dir.resolve("sources/s/segments");
    try (Engine engine =
        Engine.builder().dataDirectory(dir).segmentRows(100).reporter(reports::add).build()) {
      Source s = engine.createSource(spec("s"));
      // A file where the segment folder should be: writing a segment file fails (even as root).
      Files.delete(segments);
      Files.writeString(segments, "not a folder");
      s.appendBatch(events(0, 150)); // hands a full head over; its sealing fails
      s.awaitSealing();
      StorageFailedException refused =
          assertThrows(StorageFailedException.class, () -> s.appendBatch(events(150, 160)));
      assertTrue(
          refused.getMessage().contains("sealing segment 0 of source s"), refused.getMessage());
      assertTrue(refused.getMessage().contains(dir.resolve("sources/s").toString()));
      assertTrue(reports.contains(refused.getMessage()), "reported once: " + reports);
      assertEquals(150, rows(s).size(), "every acknowledged event still answers");
      assertEquals(0, s.core().sealedSegments().size());
    }
    Files.delete(segments);
    Files.createDirectory(segments);
    try (Engine engine = Engine.builder().dataDirectory(dir).segmentRows(100).build()) {
      Source s = engine.source("s").orElseThrow();
      assertEquals(150, rows(s).size(), "replayed from the log");
      s.appendBatch(events(150, 160)); // writable again
      s.awaitSealing();
      assertEquals(160, rows(s).size());
      assertEquals(1, s.core().sealedSegments().size());
    }
  }
}
