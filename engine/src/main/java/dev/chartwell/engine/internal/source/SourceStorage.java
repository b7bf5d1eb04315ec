package dev.chartwell.engine.internal.source;

import dev.chartwell.engine.ColumnType;
import dev.chartwell.engine.EventBatch;
import dev.chartwell.engine.internal.segment.Segment;
import java.io.IOException;
import java.util.List;

/**
 * Where a {@link SourceCore} keeps what it accepted: nowhere beyond memory ({@link #inMemory}), or
 * a write-ahead log, segment files and a manifest on disk (the engine's storage package). The
 * source calls these in a fixed order: {@link #records} outside its lock, {@link #log} under it,
 * {@link #awaitDurable} after releasing it, and, on its sealing thread, {@link #persist} then
 * {@link #publish} then {@link #truncateLog}.
 */
public interface SourceStorage {
  /**
   * @return a storage that keeps nothing: events live in memory until the source is dropped or the
   *     process ends
   */
  static SourceStorage inMemory() {
    return new InMemory();
  }

  /**
   * @throws RuntimeException when the storage failed and refuses writes, saying why
   */
  void checkWritable();

  /**
   * Encodes the log records of a batch's accepted events. Called outside the source's lock, from
   * any thread, so that appenders encode in parallel and the lock only orders the writes (and under
   * it for the part of a batch that goes to a new head).
   *
   * @param batch the events, their values converted to their columns' types
   * @param types per batch field its column type, {@code null} for a field no accepted event has
   * @param rejected per event whether it is left out, or {@code null} for none
   * @param from the first event
   * @param to one past the last
   * @return the records (none when this storage logs nothing)
   */
  List<byte[]> records(EventBatch batch, ColumnType[] types, boolean[] rejected, int from, int to);

  /**
   * Writes accepted events' records to the log, in order; called under the source's lock.
   *
   * @param records the events' {@link #records records}
   * @return the log position of the last (0 when nothing is logged)
   * @throws RuntimeException when the log failed (nothing of the events is then acknowledged)
   */
  long log(List<byte[]> records);

  /**
   * The head was handed over for sealing (called under the source's lock): events logged from now
   * on belong to later segments, so the log may start a new file, which lets it delete the
   * handed-over events' file as a whole once their segment is published.
   */
  void headHandedOver();

  /**
   * Returns once the log is durable up to a position, as the fsync policy says.
   *
   * @param position a position from {@link #log} (0: nothing to wait for)
   */
  void awaitDurable(long position);

  /**
   * Writes a sealed segment where it will live.
   *
   * @param built the segment as built on the heap
   * @return the segment to list: mapped from its file, or {@code built} itself
   * @throws IOException when it cannot be written
   */
  Segment persist(Segment built) throws IOException;

  /**
   * Publishes the source's new state atomically: the segments it lists, the log position up to
   * which their events reach, and the columns.
   *
   * @param segments every sealed segment, oldest first
   * @param logPosition events logged up to here are in those segments
   * @param nextSegmentId the id the next sealed segment gets
   * @param schema the columns
   * @throws IOException when it cannot be published (the previous state stays)
   */
  void publish(List<Segment> segments, long logPosition, long nextSegmentId, Schema schema)
      throws IOException;

  /**
   * Forgets log records that published segments hold.
   *
   * @param position the last position no longer needed
   * @throws IOException when log files cannot be deleted
   */
  void truncateLog(long position) throws IOException;

  /**
   * A published segment left the source (retention, space, corruption): release it and delete or
   * set aside its file once no query reads it.
   *
   * @param segment the segment, no longer listed in a published state
   * @param corrupt whether to move its file to quarantine instead of deleting it
   */
  void discard(Segment segment, boolean corrupt);

  /**
   * Records a failure of the sealing thread; later writes are refused with it.
   *
   * @param what what was being done
   * @param cause the error
   */
  void fail(String what, Throwable cause);

  /**
   * @return bytes of the log on disk (0 in memory)
   */
  long logBytes();

  /** The source is dropped: remove everything it stored, durably, once no query reads it. */
  void drop();

  /** The engine closes: make what was logged durable and release files (queries are done). */
  void close();

  /** The storage of a source without a data directory. */
  final class InMemory implements SourceStorage {
    private volatile RuntimeException failure;

    private InMemory() {}

    @Override
    public void checkWritable() {
      if (failure != null) {
        throw failure;
      }
    }

    @Override
    public List<byte[]> records(
        EventBatch batch, ColumnType[] types, boolean[] rejected, int from, int to) {
      return List.of();
    }

    @Override
    public long log(List<byte[]> records) {
      return 0;
    }

    @Override
    public void headHandedOver() {}

    @Override
    public void awaitDurable(long position) {}

    @Override
    public Segment persist(Segment built) {
      return built;
    }

    @Override
    public void publish(List<Segment> segments, long logPosition, long nextId, Schema schema) {}

    @Override
    public void truncateLog(long position) {}

    @Override
    public void discard(Segment segment, boolean corrupt) {}

    @Override
    public void fail(String what, Throwable cause) {
      failure = new IllegalStateException(what + " failed: " + cause, cause);
    }

    @Override
    public long logBytes() {
      return 0;
    }

    @Override
    public void drop() {}

    @Override
    public void close() {}
  }
}
