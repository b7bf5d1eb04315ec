package dev.chartwell.engine.internal.storage;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The few file operations the log needs, so that tests can count or fail them. Reads and writes are
 * positional; the log tracks where each file ends.
 */
interface LogChannel extends Closeable {
  /**
   * @param dst filled from {@code position} on
   * @param position a byte offset in the file
   * @return bytes read, or -1 at the end of the file
   * @throws IOException when reading fails
   */
  int read(ByteBuffer dst, long position) throws IOException;

  /**
   * @param src written from its position to its limit, or a first part of that
   * @param position the byte offset in the file to write at
   * @return bytes written
   * @throws IOException when writing fails
   */
  int write(ByteBuffer src, long position) throws IOException;

  /**
   * @return the file's size in bytes
   * @throws IOException when it cannot be read
   */
  long size() throws IOException;

  /**
   * @param size the new, smaller size of the file
   * @throws IOException when truncating fails
   */
  void truncate(long size) throws IOException;

  /**
   * Forces the file's data to the disk ({@code fdatasync}).
   *
   * @throws IOException when the disk reports an error
   */
  void force() throws IOException;
}
