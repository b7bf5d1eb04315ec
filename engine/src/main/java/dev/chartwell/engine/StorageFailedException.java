package dev.chartwell.engine;

import java.nio.channels.ClosedByInterruptException;
import java.nio.file.Path;

/**
 * The storage failed. Either a write or an fsync failed, so it no longer knows which bytes reached
 * the disk: the call that met the error and every later append throw this, and the log must be
 * closed and opened again, which recovers exactly the whole records that are on disk. Or the
 * storage could not be opened at all: {@link Engine.Builder#build()} on a data directory in use by
 * another engine (naming the holder), unreadable or not creatable, and {@link Engine#createSource}
 * when a source's files cannot be created. The cause is the original error.
 */
public final class StorageFailedException extends ChartwellException {
  private static final long serialVersionUID = 1L;

  private final transient Path directory;

  /**
   * @param directory the directory of the failed log
   * @param cause the error that failed it
   */
  public StorageFailedException(Path directory, Throwable cause) {
    super(message(directory, cause), cause, true);
    this.directory = directory;
  }

  /**
   * @param directory the directory of the failed storage
   * @param what what was being done, in words ("writing segment 7")
   * @param cause the error that failed it
   */
  public StorageFailedException(Path directory, String what, Throwable cause) {
    super(
        "the storage in "
            + directory
            + " failed while "
            + what
            + " ("
            + describe(cause)
            + "); it refuses writes until the engine is started again",
        cause,
        true);
    this.directory = directory;
  }

  private StorageFailedException(String message, Path directory, Throwable cause) {
    super(message, cause, true);
    this.directory = directory;
  }

  /**
   * @param directory what could not be opened or created
   * @param what what was being done, in words ("open the data directory")
   * @param cause why
   * @return the exception, its message "cannot {@code what} {@code directory}: why"
   */
  static StorageFailedException cannot(Path directory, String what, Throwable cause) {
    return new StorageFailedException(
        "cannot " + what + " " + directory + ": " + cause.getMessage(), directory, cause);
  }

  /**
   * @return the directory of the failed storage
   */
  public Path directory() {
    return directory;
  }

  private static String message(Path directory, Throwable cause) {
    return "write-ahead log in "
        + directory
        + " failed ("
        + describe(cause)
        + "); it refuses appends until it is opened again";
  }

  private static String describe(Throwable cause) {
    return cause instanceof ClosedByInterruptException
        ? "a thread was interrupted during file I/O, which closes the file channel"
        : String.valueOf(cause);
  }
}
