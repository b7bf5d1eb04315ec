package dev.chartwell.engine.internal.source;

import dev.chartwell.engine.Event;
import dev.chartwell.engine.EventBatch;
import java.util.List;

/** Events as one batch, for the tests that append lists of events to a source's core. */
final class Batches {
  private Batches() {}

  /**
   * @param events the events
   * @return them as a batch, in order
   */
  static EventBatch of(List<Event> events) {
    EventBatch batch = new EventBatch();
    events.forEach(batch::add);
    return batch;
  }
}
