package dev.chartwell.engine;

import java.util.List;
import java.util.Optional;

/**
 * A bucket length. Buckets are aligned on the UTC epoch: an event at {@code ts} falls in the bucket
 * starting at {@code floor(ts / length) * length}.
 *
 * @param name the name used in requests, for example {@code 5m}
 * @param millis the bucket length in milliseconds
 */
public record Granularity(String name, long millis) {
  private static final long S = 1000;
  private static final long M = 60 * S;
  private static final long H = 60 * M;
  private static final long D = 24 * H;

  /** Every granularity, finest first. */
  private static final List<Granularity> ALL =
      List.of(
          new Granularity("15s", 15 * S),
          new Granularity("30s", 30 * S),
          new Granularity("1m", M),
          new Granularity("5m", 5 * M),
          new Granularity("10m", 10 * M),
          new Granularity("15m", 15 * M),
          new Granularity("30m", 30 * M),
          new Granularity("1h", H),
          new Granularity("2h", 2 * H),
          new Granularity("6h", 6 * H),
          new Granularity("12h", 12 * H),
          new Granularity("1d", D),
          new Granularity("2d", 2 * D),
          new Granularity("7d", 7 * D),
          new Granularity("30d", 30 * D));

  /** The granularities a request may name (besides {@code auto}): all but 15s. */
  public static final List<Granularity> REQUESTABLE =
      ALL.stream().filter(g -> !g.name.equals("15s")).toList();

  /** The ladder {@code auto} chooses from, finest first: all but 10m. */
  static final List<Granularity> AUTO_LADDER =
      ALL.stream().filter(g -> !g.name.equals("10m")).toList();

  /**
   * @return whether this is one of the engine's own granularities (requestable or chosen by {@code
   *     auto}), rather than one a library caller made
   */
  public boolean builtIn() {
    return ALL.contains(this);
  }

  /**
   * @param name a requestable name ({@code auto} is not one; see {@link #auto})
   * @return the granularity, if the name is one
   */
  public static Optional<Granularity> named(String name) {
    return REQUESTABLE.stream().filter(g -> g.name.equals(name)).findFirst();
  }

  /**
   * The first granularity of the ladder (15s, 30s, 1m, 5m, 15m, 30m, 1h, 2h, 6h, 12h, 1d, 2d, 7d,
   * 30d) at least {@code ceil(floor((end - start) / 1000) / 60)} seconds long, capped at 30d: 1 h
   * gives 1m, 24 h gives 30m, 7 d gives 6h.
   *
   * @param startTime range start, epoch ms
   * @param endTime range end, epoch ms
   * @return the granularity
   */
  public static Granularity auto(long startTime, long endTime) {
    long seconds = Math.floorDiv(endTime - startTime, 1000);
    long target = (seconds + 59) / 60; // ceil(seconds / 60), in seconds
    for (Granularity g : AUTO_LADDER) {
      if (g.millis / 1000 >= target) {
        return g;
      }
    }
    return AUTO_LADDER.get(AUTO_LADDER.size() - 1);
  }

  /**
   * @param ts a timestamp, epoch ms
   * @return the start of its bucket
   */
  public long bucketStart(long ts) {
    return Math.floorDiv(ts, millis) * millis;
  }
}
