package dev.chartwell.engine.internal.warmup;

import dev.chartwell.engine.EventBatch;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Log events made up for the warm-ups (the embedded engine's {@link EngineWarmUp} and the
 * server's), one {@link Row} at a time or straight into an {@link EventBatch}: the fields of an
 * OpenTelemetry log (time, service, severity, body, trace id, attributes) with the value shapes
 * real logs have: a few skewed services, a thousand hosts, HTTP status codes, log-normal durations,
 * trace ids, bodies from templates with numbers, addresses and units in them. The first {@link
 * #ORDERED} of the events come in time order over the first half of the time range, every field
 * present, but for a {@link #LATE} share that come up to five minutes late, as from a real
 * application's several threads and hosts: their segments each span a stretch of time alone, almost
 * sorted (with strictly sorted segments only, sealing the first real segments met the merge sort of
 * an almost sorted one for the first time). The rest fall anywhere in the second half, some without
 * a duration or a status: their segments overlap, so that a query merges the partial results of
 * three parts or more per bucket. Queries over the whole range so meet both kinds, as they do on
 * real data. The ordered events and a quarter of the others fall on whole seconds: several events
 * share a time, and some fall exactly on a bucket's bounds, as they do in real logs (with times in
 * distinct milliseconds only, the first real query met both for the first time).
 *
 * <p>Trace ids repeat and collide as real ones do: a {@link #SAME_TRACE} share of the events carry
 * the trace id of one of the last events (a request logged several times, often across segments),
 * and a {@link #SHARED_PREFIX} share of new ids begin with one of a few prefixes. Distinct counts
 * over many values so meet equal strings and equal leading bytes of different strings, which they
 * order by comparing bytes: with unique random ids only, the compiled code of a first real distinct
 * count over millions of ids met that case for the first time and fell back to the interpreter
 * (issue 38). The same seed gives the same events.
 */
public final class SyntheticLogs {
  /** The severities, from the most frequent to the least but one ({@code error} is 5%). */
  public static final String[] SEVERITIES = {"debug", "info", "warn", "error"};

  private static final String[] METHODS = {"GET", "GET", "GET", "POST", "PUT", "DELETE"};
  private static final String[] TEMPLATES = {
    "GET /api/v1/users/%d answered in %d ms",
    "email %d sent to customer %d",
    "rate limit hit for api key %d (%d requests)",
    "connection to db-%d timeout after %d ms",
    "cache miss for key session:%d (%d entries)",
    "payment %d accepted for order %d",
    "worker %d picked job %d from the queue",
    "upstream returned 503, retrying in %d ms (attempt %d)",
    "user %d logged in from 10.0.0.%d",
    "slow query on table orders took %dms rows=%d",
    "upstream timeout from inventory-service after %dms (request %d)",
    "GC pause %dms heap used %dMB",
  };

  /** The share of events in time order, all fields present. */
  public static final double ORDERED = 0.4;

  /** The share of the ordered events that come late. */
  public static final double LATE = 0.02;

  /** The share of events that carry the trace id of one of the {@link #RECENT} last ones. */
  public static final double SAME_TRACE = 0.25;

  /** The share of new trace ids that begin with one of {@link #PREFIXES} prefixes. */
  public static final double SHARED_PREFIX = 0.1;

  private static final int RECENT = 4096;
  private static final int PREFIXES = 16;

  /** The fields of an event, in the order {@link #put} writes them. */
  private static final String[] FIELDS = {
    "ServiceName",
    "host",
    "TraceId",
    "Duration",
    "Body",
    "SeverityText",
    "status",
    "LogAttributes.http.method"
  };

  /**
   * One event, filled again by each {@link #next} (no object per event).
   *
   * <p>Its fields: {@code timestamp} (epoch milliseconds), {@code service}, {@code host}, {@code
   * traceId}, {@code duration} ({@link Double#NaN} when the event has none), {@code body}, {@code
   * severity}, {@code status} (0 when the event has none) and {@code method} (the attribute {@code
   * LogAttributes.http.method}).
   */
  public static final class Row {
    /** The event's time, epoch milliseconds. */
    public long timestamp;

    /** {@code ServiceName}. */
    public String service;

    /** {@code host}. */
    public String host;

    /** {@code TraceId}: 32 hex digits. */
    public String traceId;

    /** {@code Duration}, or {@link Double#NaN} when absent. */
    public double duration;

    /** {@code Body}. */
    public String body;

    /** {@code SeverityText}. */
    public String severity;

    /** {@code status}, or 0 when absent. */
    public int status;

    /** {@code LogAttributes.http.method}. */
    public String method;

    /** An empty row, for {@link SyntheticLogs#next}. */
    public Row() {}
  }

  private final SplittableRandom random;
  private final long start;
  private final long end;
  private final String[] recent = new String[RECENT];
  private int traces;

  /**
   * @param seed the seed
   * @param start the first event's time, epoch milliseconds
   * @param end the last event's time, epoch milliseconds
   */
  public SyntheticLogs(long seed, long start, long end) {
    this.random = new SplittableRandom(seed);
    this.start = start;
    this.end = end;
  }

  /**
   * Makes the next event.
   *
   * @param i the index of the event among {@code total} (events are made in this order)
   * @param total how many events are made in all (they spread over the time range)
   * @param row filled with the event
   */
  public void next(int i, int total, Row row) {
    long half = (end - start) / 2;
    int ordered = (int) (total * ORDERED);
    boolean dense = i < ordered;
    long ts =
        dense
            ? start + (long) (i * ((double) half / Math.max(1, ordered))) // in order, first half
            : start + half + random.nextLong(end - start - half + 1); // anywhere in the second
    if (dense && random.nextDouble() < LATE) {
      ts = Math.max(start, ts - random.nextLong(300_000));
    }
    if (dense || random.nextInt(4) == 0) { // whole seconds: events share times, and bounds
      ts = Math.max(start, ts - Math.floorMod(ts, 1000L));
    }
    row.timestamp = ts;
    int service = Math.min(9, (int) Math.floor(-Math.log(1 - random.nextDouble()) * 2.5));
    int sev = random.nextInt(100);
    row.severity = SEVERITIES[sev < 20 ? 0 : sev < 85 ? 1 : sev < 95 ? 2 : 3];
    row.service = "svc-" + service;
    row.host = "host-" + random.nextInt(1000);
    row.traceId = traceId();
    row.duration =
        dense || random.nextInt(20) != 0 // a few events carry no duration
            ? Math.exp(random.nextGaussian() * 1.5 + 3)
            : Double.NaN;
    String template = TEMPLATES[random.nextInt(TEMPLATES.length)];
    row.body = String.format(Locale.ROOT, template, random.nextInt(100_000), random.nextInt(1_000));
    row.status = dense || random.nextInt(10) != 0 ? status(random.nextInt(100)) : 0; // a few none
    row.method = METHODS[random.nextInt(METHODS.length)];
  }

  /**
   * Makes {@code count} events into a batch, as an application's own code fills one.
   *
   * @param batch the batch (its other events are kept)
   * @param from the index of the first event among {@code total}
   * @param count how many events
   * @param total how many events are made in all
   */
  public void put(EventBatch batch, int from, int count, int total) {
    int[] f = new int[FIELDS.length];
    for (int k = 0; k < f.length; k++) {
      f[k] = batch.field(FIELDS[k]);
    }
    Row row = new Row();
    for (int i = from; i < from + count; i++) {
      next(i, total, row);
      batch.startEvent();
      batch.timestamp(row.timestamp);
      batch.putString(f[0], row.service);
      batch.putString(f[1], row.host);
      batch.putString(f[2], row.traceId);
      if (!Double.isNaN(row.duration)) {
        batch.putDouble(f[3], row.duration);
      }
      batch.putString(f[4], row.body);
      batch.putString(f[5], row.severity);
      if (row.status != 0) {
        batch.putLong(f[6], row.status);
      }
      batch.putString(f[7], row.method);
      batch.endEvent();
    }
  }

  /**
   * An HTTP status as real traffic has them: mostly 200, 5% server errors, so that the rows of a
   * 5xx filter in a chunk of 65,536 rows are fewer than 4,096 (a sorted array of row numbers, not a
   * bitmap) while those of a frequent service are more (a bitmap), and a filter on both intersects
   * the two kinds as on real data.
   */
  private static int status(int percent) {
    if (percent < 3) {
      return 500;
    } else if (percent < 5) {
      return 503;
    } else if (percent < 10) {
      return 404;
    } else if (percent < 12) {
      return 400;
    } else if (percent < 14) {
      return 301;
    } else if (percent < 17) {
      return 204;
    } else if (percent < 20) {
      return 201;
    }
    return 200;
  }

  /** A new trace id, or now and then that of a recent event. */
  private String traceId() {
    if (traces > 0 && random.nextDouble() < SAME_TRACE) {
      return recent[random.nextInt(Math.min(traces, RECENT))];
    }
    StringBuilder b = new StringBuilder(32);
    if (random.nextDouble() < SHARED_PREFIX) {
      hex(b, random.nextInt(PREFIXES) * 0x9E3779B97F4A7C15L); // 16 digits fixed, 16 random
    } else {
      hex(b, random.nextLong());
    }
    hex(b, random.nextLong());
    String id = b.toString();
    recent[traces++ % RECENT] = id;
    return id;
  }

  private static void hex(StringBuilder b, long v) {
    String h = Long.toHexString(v);
    b.append("0".repeat(16 - h.length())).append(h);
  }
}
