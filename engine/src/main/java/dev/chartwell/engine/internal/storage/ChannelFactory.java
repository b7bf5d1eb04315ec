package dev.chartwell.engine.internal.storage;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Opens the log's files and syncs its directory; tests substitute counting or failing versions. */
interface ChannelFactory {
  /** Real files through {@link FileChannel}. */
  ChannelFactory FILES = new ChannelFactory() {};

  /**
   * @param file a log file, created when missing
   * @return a channel that reads and writes it
   * @throws IOException when it cannot be opened
   */
  default LogChannel open(Path file) throws IOException {
    return new FileLogChannel(
        OwnerOnly.open(
            file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE));
  }

  /**
   * @param file an existing log file
   * @return a channel that only reads it
   * @throws IOException when it cannot be opened
   */
  default LogChannel openForReading(Path file) throws IOException {
    return new FileLogChannel(FileChannel.open(file, StandardOpenOption.READ));
  }

  /**
   * Makes the creation and deletion of files in a directory durable ({@code fsync} of the
   * directory, which Linux requires for a new file's name to survive power loss).
   *
   * @param dir the directory
   * @throws IOException when the disk reports an error
   */
  default void syncDirectory(Path dir) throws IOException {
    try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
      ch.force(true);
    }
  }

  /** A {@link LogChannel} over a {@link FileChannel}. */
  final class FileLogChannel implements LogChannel {
    private final FileChannel ch;

    FileLogChannel(FileChannel ch) {
      this.ch = ch;
    }

    @Override
    public int read(java.nio.ByteBuffer dst, long position) throws IOException {
      return ch.read(dst, position);
    }

    @Override
    public int write(java.nio.ByteBuffer src, long position) throws IOException {
      return ch.write(src, position);
    }

    @Override
    public long size() throws IOException {
      return ch.size();
    }

    @Override
    public void truncate(long size) throws IOException {
      ch.truncate(size);
    }

    @Override
    public void force() throws IOException {
      ch.force(false);
    }

    @Override
    public void close() throws IOException {
      ch.close();
    }
  }
}
