package dev.chartwell.engine.internal.storage;

import dev.chartwell.engine.FsyncPolicy;
import dev.chartwell.engine.internal.segment.Segment;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.function.Consumer;

/**
 * What the storages of one engine share: the fsync policy, the quarantine folder for files that
 * fail verification, where problems are reported, and who verifies newly opened segment files.
 *
 * @param policy when to fsync the write-ahead logs
 * @param quarantine the folder damaged files are moved to
 * @param dropped the folder dropped sources' files wait in until no query reads them
 * @param reporter told about every problem found and every file set aside, in one line each
 * @param verifier given every segment file opened after start, to verify it in the background
 */
public record StorageContext(
    FsyncPolicy policy,
    Path quarantine,
    Path dropped,
    Consumer<String> reporter,
    Consumer<Segment> verifier) {

  /**
   * @param line a problem, in our words
   */
  public void report(String line) {
    EngineLog.problem(reporter, line);
  }

  /**
   * @param segment a segment file just written and mapped
   */
  void opened(Segment segment) {
    verifier.accept(segment);
  }

  /**
   * Moves a damaged file or folder to the quarantine folder (named after its source, its name and
   * the time) and reports it, so that nothing is deleted that someone may want to inspect.
   *
   * @param file the file or folder
   * @param sourceId its source
   * @param reason what is wrong with it
   */
  public void quarantine(Path file, String sourceId, String reason) {
    String name =
        sourceId + "-" + file.getFileName() + "-" + Instant.now().toString().replace(':', '-');
    Path target = quarantine.resolve(name);
    try {
      OwnerOnly.createDirectories(quarantine);
      Files.move(file, target, StandardCopyOption.ATOMIC_MOVE);
      Durable.forceDirectory(quarantine);
      report(reason + "; moved to " + target);
    } catch (IOException | RuntimeException e) {
      report(reason + "; could not move it to " + target + " (" + e + ")");
    }
  }
}
