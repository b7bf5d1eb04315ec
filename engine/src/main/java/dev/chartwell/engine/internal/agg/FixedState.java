package dev.chartwell.engine.internal.agg;

/**
 * A state whose value is already known: what a metric series computed for one (bucket, group) over
 * all its segments at once, or a state {@link AggState#finishEarly finished early} in the only
 * segment with rows in its bucket. It is never merged.
 */
public final class FixedState extends AggState {
  private final Number value;

  private FixedState(Number value) {
    this.value = value;
  }

  /**
   * @param value the finished value
   * @return a state that finishes to it
   */
  public static AggState of(Number value) {
    return new FixedState(value);
  }

  @Override
  public void add(ValueReader reader, int row, long timestamp, long order) {
    throw new IllegalStateException("a fixed state takes no rows");
  }

  @Override
  public void merge(AggState other) {
    throw new IllegalStateException("a fixed state is the whole answer of its (bucket, group)");
  }

  @Override
  public boolean isEmpty() {
    return false;
  }

  @Override
  public Number finish(long bucketMillis) {
    return value;
  }
}
