package dev.chartwell.engine.internal.storage;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Real files with hooks: counts writes and forces, remembers how far each file was written and how
 * far a completed force covered, and fails writes or forces on request.
 */
final class TestFiles implements ChannelFactory {
  final AtomicInteger writes = new AtomicInteger();
  final AtomicInteger forces = new AtomicInteger();
  final AtomicInteger directorySyncs = new AtomicInteger();

  /** Highest end offset of a completed write (one file in the tests that use it). */
  final AtomicLong writtenEnd = new AtomicLong();

  /** Highest {@link #writtenEnd} seen at the start of a force that then completed. */
  final AtomicLong forcedEnd = new AtomicLong();

  /** Writes that succeed before writes fail; negative: never fail. */
  volatile int writesBeforeFailure = -1;

  /** Bytes a failing write still writes before it throws. */
  volatile int bytesOfFailingWrite;

  volatile boolean failForces;
  volatile boolean failDirectorySyncs;

  /** Extra time each force takes, as a slower disk would. */
  volatile long forceDelayMillis;

  @Override
  public LogChannel open(Path file) throws IOException {
    return new Channel(ChannelFactory.FILES.open(file));
  }

  @Override
  public void syncDirectory(Path dir) throws IOException {
    if (failDirectorySyncs) {
      throw new IOException("injected directory sync failure");
    }
    directorySyncs.incrementAndGet();
    ChannelFactory.FILES.syncDirectory(dir);
  }

  private final class Channel implements LogChannel {
    private final LogChannel real;

    Channel(LogChannel real) {
      this.real = real;
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
      return real.read(dst, position);
    }

    @Override
    public int write(ByteBuffer src, long position) throws IOException {
      int allowed = writesBeforeFailure;
      if (allowed == 0) {
        int n = Math.min(bytesOfFailingWrite, src.remaining());
        ByteBuffer part = src.duplicate();
        part.limit(part.position() + n);
        while (part.hasRemaining()) {
          real.write(part, position + part.position() - src.position());
        }
        throw new IOException("injected write failure: no space left on device");
      }
      if (allowed > 0) {
        writesBeforeFailure = allowed - 1;
      }
      int n = real.write(src, position);
      writes.incrementAndGet();
      writtenEnd.accumulateAndGet(position + n, Math::max);
      return n;
    }

    @Override
    public long size() throws IOException {
      return real.size();
    }

    @Override
    public void truncate(long size) throws IOException {
      real.truncate(size);
    }

    @Override
    public void force() throws IOException {
      if (failForces) {
        throw new IOException("injected fsync failure: input/output error");
      }
      long covered = writtenEnd.get();
      real.force();
      long delay = forceDelayMillis;
      if (delay > 0) {
        try {
          Thread.sleep(delay);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IOException("interrupted", e);
        }
      }
      forces.incrementAndGet();
      forcedEnd.accumulateAndGet(covered, Math::max);
    }

    @Override
    public void close() throws IOException {
      real.close();
    }
  }
}
