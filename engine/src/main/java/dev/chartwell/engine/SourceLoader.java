package dev.chartwell.engine;

import dev.chartwell.engine.internal.segment.Segment;
import dev.chartwell.engine.internal.source.SourceCore;
import dev.chartwell.engine.internal.storage.EngineFiles;
import dev.chartwell.engine.internal.storage.SourceFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Opens every source of a data directory at start, saying what it does: how many sources, and per
 * source its segments and the logged events it replays, so that a long recovery is never silent. A
 * source that cannot be opened is reported and set aside; the others load.
 */
final class SourceLoader {
  private final EngineFiles files;
  private final Consumer<String> reporter;

  SourceLoader(EngineFiles files, Consumer<String> reporter) {
    this.files = files;
    this.reporter = reporter;
  }

  /**
   * @param restore creates a source (not yet registered) from what was found on disk
   * @param register makes a source whose log was replayed visible
   * @throws IOException when the data directory cannot be listed
   */
  void loadAll(Function<SourceFiles.Opened, SourceCore> restore, Consumer<SourceCore> register)
      throws IOException {
    long started = System.nanoTime();
    List<Path> dirs = files.sourceDirectories();
    if (!dirs.isEmpty()) {
      reporter.accept(String.format(Locale.ROOT, "opening %,d sources", dirs.size()));
    }
    List<Segment> found = new ArrayList<>();
    long events = 0;
    long replayed = 0;
    for (Path dir : dirs) {
      long t0 = System.nanoTime();
      SourceFiles.Opened opened = files.open(dir);
      if (opened == null) {
        continue;
      }
      SourceCore source;
      try {
        source = restore.apply(opened);
      } catch (RuntimeException | Error e) {
        opened.files().close(); // its log and the log's lock: the failed build lets go of them
        throw e;
      }
      long[] count = new long[1];
      try {
        count[0] = opened.files().replayInto(source);
      } catch (IOException | RuntimeException e) {
        source.shutdown(false);
        files
            .context()
            .quarantine(
                dir,
                dir.getFileName().toString(),
                "source in " + dir + " could not replay its log (" + e.getMessage() + ")");
        continue;
      }
      register.accept(source);
      long rows = count[0];
      for (Segment s : opened.segments()) {
        rows += s.rows();
      }
      found.addAll(opened.segments());
      events += rows;
      replayed += count[0];
      double seconds = (System.nanoTime() - t0) / 1e9;
      if (seconds >= 1 || count[0] > 0) {
        reporter.accept(
            String.format(
                Locale.ROOT,
                "source %s: %,d segment files, %,d events (%,d replayed from the log) in %.1f s",
                opened.manifest().spec().id(),
                opened.segments().size(),
                rows,
                count[0],
                seconds));
      }
    }
    if (!dirs.isEmpty()) {
      reporter.accept(
          String.format(
              Locale.ROOT,
              "opened %,d events in %.1f s (%,d replayed from write-ahead logs)",
              events,
              (System.nanoTime() - started) / 1e9,
              replayed));
    }
    files.verifyInBackground(found);
  }
}
