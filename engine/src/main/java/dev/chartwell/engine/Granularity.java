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

  /** 15-second buckets (chosen by {@link #AUTO} for short ranges; not requestable by name). */
  public static final Granularity FIFTEEN_SECONDS = new Granularity("15s", 15 * S);

  /** 30-second buckets. */
  public static final Granularity THIRTY_SECONDS = new Granularity("30s", 30 * S);

  /** 1-minute buckets. */
  public static final Granularity MINUTE = new Granularity("1m", M);

  /** 5-minute buckets. */
  public static final Granularity FIVE_MINUTES = new Granularity("5m", 5 * M);

  /** 10-minute buckets. */
  public static final Granularity TEN_MINUTES = new Granularity("10m", 10 * M);

  /** 15-minute buckets. */
  public static final Granularity FIFTEEN_MINUTES = new Granularity("15m", 15 * M);

  /** 30-minute buckets. */
  public static final Granularity THIRTY_MINUTES = new Granularity("30m", 30 * M);

  /** 1-hour buckets. */
  public static final Granularity HOUR = new Granularity("1h", H);

  /** 2-hour buckets. */
  public static final Granularity TWO_HOURS = new Granularity("2h", 2 * H);

  /** 6-hour buckets. */
  public static final Granularity SIX_HOURS = new Granularity("6h", 6 * H);

  /** 12-hour buckets. */
  public static final Granularity TWELVE_HOURS = new Granularity("12h", 12 * H);

  /** 1-day buckets (UTC days). */
  public static final Granularity DAY = new Granularity("1d", D);

  /** 2-day buckets. */
  public static final Granularity TWO_DAYS = new Granularity("2d", 2 * D);

  /** 7-day buckets (aligned on the epoch, a Thursday, not on Mondays). */
  public static final Granularity SEVEN_DAYS = new Granularity("7d", 7 * D);

  /** 30-day buckets (aligned on the epoch, not on calendar months). */
  public static final Granularity THIRTY_DAYS = new Granularity("30d", 30 * D);

  /**
   * Let the engine choose from the query's range ({@link #auto(long, long)}): about 60 buckets or
   * fewer. Not a bucket length itself; {@link ChartResult#granularity()} says which was chosen.
   */
  public static final Granularity AUTO = new Granularity("auto", 0);

  /** Every granularity, finest first. */
  private static final List<Granularity> ALL =
      List.of(
          FIFTEEN_SECONDS,
          THIRTY_SECONDS,
          MINUTE,
          FIVE_MINUTES,
          TEN_MINUTES,
          FIFTEEN_MINUTES,
          THIRTY_MINUTES,
          HOUR,
          TWO_HOURS,
          SIX_HOURS,
          TWELVE_HOURS,
          DAY,
          TWO_DAYS,
          SEVEN_DAYS,
          THIRTY_DAYS);

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
   * @return whether this is {@link #AUTO}
   */
  public boolean isAuto() {
    return millis == 0 && name.equals("auto");
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
