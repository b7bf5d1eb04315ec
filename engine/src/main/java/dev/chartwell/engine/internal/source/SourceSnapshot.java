package dev.chartwell.engine.internal.source;

import dev.chartwell.engine.internal.segment.Segment;
import java.util.List;

/**
 * The segments and schema a query runs on. Closing releases the references on mapped segments; a
 * segment must not be read after that.
 */
public final class SourceSnapshot implements AutoCloseable {
  private final Schema schema;
  private final List<Segment> segments;
  private List<Segment> held;

  SourceSnapshot(Schema schema, List<Segment> segments, List<Segment> held) {
    this.schema = schema;
    this.segments = segments;
    this.held = held;
  }

  /**
   * @return the schema at snapshot time
   */
  public Schema schema() {
    return schema;
  }

  /**
   * @return sealed segments, heads being sealed and the frozen head, oldest first
   */
  public List<Segment> segments() {
    return segments;
  }

  /**
   * @return total rows
   */
  public long rows() {
    long n = 0;
    for (Segment s : segments) {
      n += s.rows();
    }
    return n;
  }

  /** Releases the segments' references (once). */
  @Override
  public synchronized void close() {
    if (held != null) {
      held.forEach(Segment::release);
      held = null;
    }
  }
}
