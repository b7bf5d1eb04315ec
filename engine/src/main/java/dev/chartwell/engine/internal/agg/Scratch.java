package dev.chartwell.engine.internal.agg;

/**
 * Arrays a thread reuses within one call, for rows it decodes or values it copies, instead of
 * allocating them for every bucket and segment (or every group's quantile): a query's tasks ran
 * through tens of megabytes of such short-lived arrays, which brought young collections sooner.
 * Each thread (a worker, or a thread that asked for a query and takes its tasks too) has its own;
 * no array is held past the call that took it, and a method holding one calls nothing that takes
 * the same one. What a thread keeps is bounded: 24 KiB, and at most {@link #MAX_VALUES} values.
 */
final class Scratch {
  /** Room for decoded ordinals: a block of {@link IdBlocks#ROWS} rows. */
  static final int ORDINALS = IdBlocks.ROWS;

  /** Room for a chunk of a mapped double column. */
  static final int CHUNK = 1024;

  /** The most values kept for {@link #values}: 64 KiB; more are allocated for the call. */
  static final int MAX_VALUES = 8192;

  private static final ThreadLocal<Scratch> OF_THREAD = ThreadLocal.withInitial(Scratch::new);

  private final int[] ordinals = new int[ORDINALS];
  private final double[] chunk = new double[CHUNK];
  private double[] values = new double[64];

  private Scratch() {}

  /**
   * @return this thread's room for {@link #ORDINALS} decoded ordinals
   */
  static int[] ordinals() {
    return OF_THREAD.get().ordinals;
  }

  /**
   * @return this thread's room for a {@link #CHUNK} of doubles
   */
  static double[] chunk() {
    return OF_THREAD.get().chunk;
  }

  /**
   * @param n how many values
   * @return room for at least n values: this thread's array up to {@link #MAX_VALUES}, else a new
   *     one
   */
  static double[] values(int n) {
    if (n > MAX_VALUES) {
      return new double[n];
    }
    Scratch s = OF_THREAD.get();
    if (s.values.length < n) {
      s.values = new double[Math.min(MAX_VALUES, Math.max(n, Integer.highestOneBit(n) << 1))];
    }
    return s.values;
  }
}
