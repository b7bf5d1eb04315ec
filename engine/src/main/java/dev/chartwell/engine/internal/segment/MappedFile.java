package dev.chartwell.engine.internal.segment;

import java.nio.MappedByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.CRC32C;

/**
 * The mapping of one segment file, with the count of its readers and the result of verifying its
 * checksum. The owner (a source) holds one reference from opening to {@link #retire}; each query
 * snapshot holds one while it runs. When the last is released the mapping is released, and then the
 * retiring owner's action runs (delete the file, or move it aside), so that no reader ever sees a
 * file disappear under it.
 */
final class MappedFile {
  private static final int UNVERIFIED = 0;
  private static final int VERIFIED = 1;
  private static final int CORRUPT = 2;

  private final Path path;
  private final MappedByteBuffer buffer;
  private final int contentLength;
  private final int contentCrc;
  private final AtomicInteger refs = new AtomicInteger(1);
  private final AtomicBoolean retired = new AtomicBoolean();
  private volatile Runnable whenFree;
  private volatile Runnable onCorrupt = () -> {};
  private volatile int state = UNVERIFIED;
  private String problem; // guarded by this

  /**
   * @param path the file
   * @param buffer its mapping, which this object releases
   * @param contentLength the bytes the content checksum covers
   * @param contentCrc the content checksum from the footer
   */
  MappedFile(Path path, MappedByteBuffer buffer, int contentLength, int contentCrc) {
    this.path = path;
    this.buffer = buffer;
    this.contentLength = contentLength;
    this.contentCrc = contentCrc;
  }

  /**
   * @param listener told once, on the verifying thread, when the content checksum fails
   */
  void onCorrupt(Runnable listener) {
    this.onCorrupt = listener;
  }

  Path path() {
    return path;
  }

  long length() {
    return buffer.capacity();
  }

  /**
   * @return whether a reference was taken (false once the file is released)
   */
  boolean acquire() {
    while (true) {
      int r = refs.get();
      if (r <= 0) {
        return false;
      }
      if (refs.compareAndSet(r, r + 1)) {
        return true;
      }
    }
  }

  void release() {
    int r = refs.decrementAndGet();
    if (r == 0) {
      Unmapper.unmap(buffer);
      Runnable action = whenFree;
      if (action != null) {
        action.run();
      }
    } else if (r < 0) {
      throw new IllegalStateException("segment file " + path + " released more often than taken");
    }
  }

  /**
   * Drops the owner's reference; once the last reader is done the mapping is released and then
   * {@code afterRelease} runs (on the thread of that last release).
   *
   * @param afterRelease what to do with the file then, or {@code null} to keep it
   */
  void retire(Runnable afterRelease) {
    if (retired.compareAndSet(false, true)) {
      whenFree = afterRelease;
      release();
    }
  }

  boolean isVerified() {
    return state == VERIFIED;
  }

  /**
   * Checks the content checksum once; later calls answer from memory. The caller holds a reference.
   *
   * @return {@code null} when the file verifies, else what is wrong
   */
  String verify() {
    if (state == VERIFIED) {
      return null;
    }
    boolean found;
    String result;
    synchronized (this) {
      found = state == UNVERIFIED;
      if (state == UNVERIFIED) {
        CRC32C crc = new CRC32C();
        crc.update(buffer.slice(0, contentLength));
        if ((int) crc.getValue() == contentCrc) {
          state = VERIFIED;
        } else {
          problem =
              "segment file " + path + " does not verify: its content checksum does not match";
          state = CORRUPT;
        }
      }
      found &= state == CORRUPT;
      result = state == VERIFIED ? null : problem;
    }
    if (found) {
      onCorrupt.run();
    }
    return result;
  }
}
