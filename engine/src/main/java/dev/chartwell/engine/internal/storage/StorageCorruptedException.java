package dev.chartwell.engine.internal.storage;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A file of the storage holds bytes that fail verification where a torn write cannot explain them:
 * a bad record that is followed by valid ones, a bad record in a file that is not the newest, a bad
 * file header, or a missing file in a sequence. Nothing is skipped or repaired; the message names
 * the file and the byte offset so that an operator can inspect it.
 */
public final class StorageCorruptedException extends IOException {
  private static final long serialVersionUID = 1L;

  private final transient Path file;
  private final long offset;

  /**
   * @param file the file holding the bad bytes
   * @param offset the byte offset in that file where they start
   * @param reason what is wrong there
   */
  public StorageCorruptedException(Path file, long offset, String reason) {
    super(file + ": corrupted at byte offset " + offset + ": " + reason);
    this.file = file;
    this.offset = offset;
  }

  /**
   * @return the file holding the bad bytes
   */
  public Path file() {
    return file;
  }

  /**
   * @return the byte offset in {@link #file()} where the bad bytes start
   */
  public long offset() {
    return offset;
  }
}
