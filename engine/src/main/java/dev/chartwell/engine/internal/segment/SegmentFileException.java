package dev.chartwell.engine.internal.segment;

import java.io.IOException;
import java.nio.file.Path;

/** A segment file that does not verify: its header, footer, table of contents or checksum. */
public final class SegmentFileException extends IOException {
  private static final long serialVersionUID = 1L;

  private final transient Path file;

  /**
   * @param file the file
   * @param reason what is wrong, in our words
   */
  public SegmentFileException(Path file, String reason) {
    super("segment file " + file + " does not verify: " + reason);
    this.file = file;
  }

  /**
   * @return the file
   */
  public Path file() {
    return file;
  }
}
