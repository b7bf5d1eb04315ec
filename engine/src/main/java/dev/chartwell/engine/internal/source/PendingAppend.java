package dev.chartwell.engine.internal.source;

import dev.chartwell.engine.AppendResult;

/**
 * An append whose events are stored (queries see them) and whose log records are written, but
 * perhaps not yet durable: {@link #awaitDurable()} before acknowledging them ({@link
 * SourceCore#appendPending}).
 */
public final class PendingAppend {
  private final AppendResult result;
  private final SourceStorage storage;
  private final long position;

  /**
   * @param result how many were stored and why the others were not
   * @param storage where they were logged
   * @param position the log position of their last record (0: nothing was logged)
   */
  PendingAppend(AppendResult result, SourceStorage storage, long position) {
    this.result = result;
    this.storage = storage;
    this.position = position;
  }

  /**
   * @return how many were stored and why the others were not
   */
  public AppendResult result() {
    return result;
  }

  /**
   * Returns once the events are durable as the storage's fsync policy says.
   *
   * @throws RuntimeException when the storage failed before they were
   */
  public void awaitDurable() {
    storage.awaitDurable(position);
  }
}
