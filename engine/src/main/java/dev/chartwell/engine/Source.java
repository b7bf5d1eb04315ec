package dev.chartwell.engine;

import dev.chartwell.engine.internal.source.PendingAppend;
import dev.chartwell.engine.internal.source.Schema;
import dev.chartwell.engine.internal.source.Snapshots;
import dev.chartwell.engine.internal.source.SourceCore;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A named stream of events in an {@link Engine}: what an application appends to. Get one from
 * {@link Engine#createSource} or {@link Engine#source(String)}; query it by its {@link #id()}.
 *
 * <p>Appends are thread-safe and serialized per source. An event is checked completely before
 * anything of it is stored, so a rejected event leaves no trace, not even a new column. With a data
 * directory, an append returns once its events are durable as the engine's {@link FsyncPolicy}
 * says. Three ways in, from the simplest to the fastest: {@link #append(Event)} (one event; a
 * problem throws {@link RejectedEventException}), {@link #appendBatch(List)} (valid events kept,
 * the others reported by index) and {@link #append(EventBatch)} (events held by field, no object
 * per event or value).
 *
 * <p>Events are timestamped in epoch milliseconds from {@link #MIN_TIMESTAMP} (2001-09-09, the
 * earliest time a chart query addresses) to {@link #MAX_TIMESTAMP} (the end of year 9999); others
 * are rejected with a reason that says which bound they broke, and whether they look like seconds
 * rather than milliseconds.
 *
 * <p>After {@link Engine#close()} every method but {@link #id()} and {@link #spec()} throws {@link
 * EngineClosedException}; after {@link Engine#dropSource} appends throw {@link
 * UnknownSourceException}.
 */
public final class Source {
  /**
   * The earliest timestamp an event may have: {@code 1_000_000_000_000} ms, 2001-09-09T01:46:40Z,
   * the earliest start a chart query accepts. Every timestamp in seconds up to the year 33658 is
   * below it, so a timestamp in seconds is rejected rather than stored in January 1970.
   */
  public static final long MIN_TIMESTAMP = 1_000_000_000_000L;

  /** The latest timestamp an event may have: 9999-12-31T23:59:59.999Z in epoch milliseconds. */
  public static final long MAX_TIMESTAMP = 253_402_300_799_999L;

  static {
    Snapshots.install(s -> s.core);
  }

  private final SourceCore core;
  private final Engine engine;

  Source(SourceCore core, Engine engine) {
    this.core = core;
    this.engine = engine;
  }

  /** The mechanics, for the engine and its tests. */
  SourceCore core() {
    return core;
  }

  /**
   * @return the source id, what series and searches name
   */
  public String id() {
    return core.id();
  }

  /**
   * @return the definition it was created with
   */
  public SourceSpec spec() {
    return core.spec();
  }

  /**
   * @return its columns as they are now, in the order they appeared: the declared ones and every
   *     field an accepted event brought
   * @throws EngineClosedException when the engine is closed
   */
  public List<ColumnSpec> columns() {
    engine.requireOpen();
    List<Schema.Column> columns = core.schema().columns();
    List<ColumnSpec> out = new ArrayList<>(columns.size());
    for (Schema.Column c : columns) {
      out.add(new ColumnSpec(c.name(), c.type()));
    }
    return List.copyOf(out);
  }

  /**
   * Appends one event; when it returns, the event is durable as the engine's fsync policy says.
   *
   * @param event the event
   * @throws NullPointerException when {@code event} is null
   * @throws RejectedEventException when the event cannot be stored (the message names the field or
   *     the timestamp bound); nothing of it is kept
   * @throws WritesRefusedException when the engine refuses writes for now (memory); retry later
   * @throws StorageFailedException when the source's storage failed
   * @throws EngineClosedException when the engine is closed
   * @throws UnknownSourceException when the source was dropped
   */
  public void append(Event event) {
    Objects.requireNonNull(event, "event");
    engine.requireOpen();
    core.append(event);
  }

  /**
   * Appends events, keeping the valid ones; when it returns, they are durable as the engine's fsync
   * policy says.
   *
   * @param events the events
   * @return how many were stored and why the others were not (by position in the list)
   * @throws NullPointerException when {@code events} or one of its elements is null (the message
   *     gives the element's index); nothing of the list is kept
   * @throws WritesRefusedException when the engine refuses writes for now (memory); nothing of the
   *     list is kept
   * @throws StorageFailedException when the source's storage failed
   * @throws EngineClosedException when the engine is closed
   * @throws UnknownSourceException when the source was dropped
   */
  public AppendResult appendBatch(List<Event> events) {
    Objects.requireNonNull(events, "events");
    engine.requireOpen();
    EventBatch batch = new EventBatch();
    for (int i = 0, n = events.size(); i < n; i++) {
      Event e = events.get(i);
      if (e == null) {
        throw new NullPointerException("events[" + i + "] is null");
      }
      batch.add(e);
    }
    return core.append(batch);
  }

  /**
   * Appends a batch of events, keeping the valid ones; when it returns, they are durable as the
   * engine's fsync policy says. The fastest way in: the events are checked, logged and stored a
   * field at a time. Values may be converted in place; clear the batch before filling it again.
   *
   * @param batch the events
   * @return how many were stored and why the others were not (by position in the batch)
   * @throws NullPointerException when {@code batch} is null
   * @throws WritesRefusedException when the engine refuses writes for now (memory); nothing of the
   *     batch is kept
   * @throws StorageFailedException when the source's storage failed
   * @throws EngineClosedException when the engine is closed
   * @throws UnknownSourceException when the source was dropped
   */
  public AppendResult append(EventBatch batch) {
    Objects.requireNonNull(batch, "batch");
    engine.requireOpen();
    return core.append(batch);
  }

  /**
   * {@link #append(EventBatch)} without waiting for the log to be durable, so that a caller reading
   * a long stream can prepare its next batch meanwhile (and wait once per batch, for the one
   * before). Until {@link Pending#awaitDurable()} returns, the events are not acknowledged: a crash
   * or power cut may lose them, as the fsync policy says. Queries see them at once.
   *
   * @param batch the events
   * @return the outcome, to wait on
   * @throws NullPointerException when {@code batch} is null
   * @throws WritesRefusedException when the engine refuses writes for now (memory); nothing of the
   *     batch is kept
   * @throws StorageFailedException when the source's storage failed
   * @throws EngineClosedException when the engine is closed
   * @throws UnknownSourceException when the source was dropped
   */
  public Pending appendPending(EventBatch batch) {
    Objects.requireNonNull(batch, "batch");
    engine.requireOpen();
    return new Pending(core.appendPending(batch));
  }

  /**
   * An append whose events are stored (queries see them) and whose log records are written, but
   * perhaps not yet durable: {@link #awaitDurable()} before acknowledging them.
   */
  public static final class Pending {
    private final PendingAppend pending;

    private Pending(PendingAppend pending) {
      this.pending = pending;
    }

    /**
     * @return how many were stored and why the others were not
     */
    public AppendResult result() {
      return pending.result();
    }

    /**
     * Returns once the events are durable as the engine's fsync policy says.
     *
     * @throws StorageFailedException when the storage failed before they were
     */
    public void awaitDurable() {
      pending.awaitDurable();
    }
  }

  /**
   * Seals the events not yet in a segment into one now and waits until every seal handed over is
   * done (useful before measuring, or in tests; the engine seals on its own every {@code
   * segmentRows} events).
   *
   * @throws EngineClosedException when the engine is closed
   */
  public void seal() {
    engine.requireOpen();
    core.seal();
  }

  /**
   * Waits until every head handed to the sealing thread so far is sealed, without sealing more.
   *
   * @throws EngineClosedException when the engine is closed
   */
  public void awaitSealing() {
    engine.requireOpen();
    core.awaitSealing();
  }

  /**
   * @return rows, segments, bytes (per column), disk, seal backlog and ingestion rate of this
   *     source
   * @throws EngineClosedException when the engine is closed
   */
  public SourceStats stats() {
    engine.requireOpen();
    return core.stats();
  }

  @Override
  public String toString() {
    return "Source[" + core.id() + "]";
  }
}
