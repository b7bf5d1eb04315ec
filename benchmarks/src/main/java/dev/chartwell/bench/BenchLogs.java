package dev.chartwell.bench;

import dev.chartwell.engine.Event;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The deterministic {@code bench-logs} data set: the same seed and row count always give the same
 * events. Events span the 24 hours before {@link #END}, mostly in time order with about 2% late by
 * up to five minutes.
 *
 * <p>Fields: {@code ServiceName} (10 values, skewed), {@code SeverityText} (debug 30%, info 55%,
 * warn 10%, error 5%), {@code host} (1,000 values), {@code status} (8 HTTP codes), {@code Duration}
 * (double, log-normal, long tail), {@code TraceId} (32 random hex digits), {@code
 * LogAttributes.http.method}, and {@code Body} from 30 templates with variable tokens; about 3% of
 * bodies contain the word {@code timeout}.
 */
public final class BenchLogs {
  /** The instant the data set ends at: 2026-01-01T00:00:00Z. */
  public static final long END = 1_767_225_600_000L;

  /** The span of the data set. */
  public static final long SPAN = 24L * 3600 * 1000;

  static final String[] SERVICES = {
    "svc-0", "svc-1", "svc-2", "svc-3", "svc-4", "svc-5", "svc-6", "svc-7", "svc-8", "svc-9"
  };
  static final int[] SERVICE_WEIGHTS = {30, 20, 12, 9, 8, 7, 5, 4, 3, 2};
  static final String[] SEVERITIES = {"debug", "info", "warn", "error"};
  static final int[] SEVERITY_WEIGHTS = {30, 55, 10, 5};
  static final long[] STATUS = {200, 201, 204, 301, 400, 404, 500, 503};
  static final int[] STATUS_WEIGHTS = {70, 5, 5, 3, 5, 6, 4, 2};
  static final String[] METHODS = {"GET", "POST", "PUT", "DELETE", "PATCH"};
  static final int[] METHOD_WEIGHTS = {60, 25, 8, 4, 3};
  static final String[] TEMPLATES = {
    "GET /api/v1/users/%d 200 in %dms",
    "POST /api/v1/orders created order %d for user %d",
    "user %d logged in from 10.0.0.%d",
    "cache miss for key session:%d (%d bytes)",
    "request timeout after %dms calling payment-service (attempt %d)",
    "connection reset by peer while reading from db-%d after %dms",
    "processed batch %d with %d records",
    "scheduled job cleanup-%d finished in %dms",
    "retrying request %d, backoff %dms",
    "slow query on table orders took %dms rows=%d",
    "health check ok for instance %d uptime %ds",
    "invalid token for user %d: expired %ds ago",
    "queue depth %d exceeds threshold %d",
    "upstream timeout from inventory-service after %dms (request %d)",
    "payment %d authorized amount %d cents",
    "email %d sent to customer %d",
    "feature flag checkout-v%d evaluated for user %d",
    "GC pause %dms heap used %dMB",
    "websocket %d closed with code %d",
    "file upload %d completed size %dKB",
    "rate limit hit for api key %d (%d requests)",
    "search query returned %d results in %dms",
    "config reloaded version %d by admin %d",
    "shipment %d dispatched from warehouse %d",
    "TLS handshake failed with client %d reason %d",
    "disk usage at %d percent on volume %d",
    "order %d cancelled by user %d",
    "metrics flushed %d series in %dms",
    "dns lookup for db-%d took %dms",
    "startup complete in %dms with %d workers"
  };

  /** Templates 4 and 13 contain "timeout"; their weights make it about 3% of bodies. */
  static final int[] TEMPLATE_WEIGHTS = {
    12, 8, 6, 6, 2, 2, 5, 3, 3, 3, 8, 2, 2, 1, 4, 4, 3, 2, 2, 2, 2, 4, 1, 2, 1, 1, 2, 3, 2, 1
  };

  /** Each template split around its two {@code %d}. */
  private static final String[][] TEMPLATE_PARTS = split(TEMPLATES);

  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private static final int ERROR = 3;

  /** {@code host-0} to {@code host-999}, made once. */
  private static final String[] HOSTS = new String[1000];

  /** Whether each template contains {@code timeout}. */
  private static final boolean[] TIMEOUT = new boolean[TEMPLATES.length];

  static {
    for (int h = 0; h < HOSTS.length; h++) {
      HOSTS[h] = "host-" + h;
    }
    for (int t = 0; t < TEMPLATES.length; t++) {
      TIMEOUT[t] = TEMPLATES[t].contains("timeout");
    }
  }

  private final SplittableRandom random;
  private final int rows;
  private int next;

  /**
   * @param rows number of events
   * @param seed the seed
   */
  public BenchLogs(int rows, long seed) {
    this.rows = rows;
    this.random = new SplittableRandom(seed);
  }

  /**
   * @return whether events remain
   */
  public boolean hasNext() {
    return next < rows;
  }

  /**
   * One event's values, typed, refilled by {@link #next(Row)}: what a loader hands to a typed API
   * ({@code EventBatch}, DuckDB's Appender) without building a map per event. Strings that take few
   * values ({@code ServiceName}, {@code SeverityText}, {@code host}, the method) are shared.
   */
  public static final class Row {
    /** Event time, epoch milliseconds. */
    public long timestamp;

    /** Index into the services: {@code ServiceName} is {@code svc-N}. */
    public int service;

    /** Index into debug, info, warn, error. */
    public int severity;

    /** {@code host}. */
    public String host;

    /** {@code status}. */
    public long status;

    /** {@code Duration}. */
    public double duration;

    /** {@code TraceId}. */
    public String traceId;

    /** {@code LogAttributes.http.method}. */
    public String method;

    /** {@code Body}. */
    public String body;

    /** Whether {@link #body} contains {@code timeout}. */
    public boolean timeout;

    /**
     * @return {@code ServiceName}
     */
    public String serviceName() {
      return SERVICES[service];
    }

    /**
     * @return {@code SeverityText}
     */
    public String severityText() {
      return SEVERITIES[severity];
    }

    /**
     * @return whether {@code SeverityText} is {@code error}
     */
    public boolean error() {
      return severity == ERROR;
    }
  }

  /**
   * Fills {@code row} with the next event: the same events, in the same order, as {@link #next()}.
   *
   * @param row the row to fill
   */
  public void next(Row row) {
    int i = next++;
    long ts = END - SPAN + (SPAN * i) / rows;
    if (random.nextInt(50) == 0) {
      ts -= random.nextLong(300_000); // late by up to 5 minutes
    }
    row.timestamp = Math.max(END - SPAN, ts);
    row.service = pick(SERVICE_WEIGHTS);
    row.severity = pick(SEVERITY_WEIGHTS);
    row.host = HOSTS[random.nextInt(1000)];
    row.status = STATUS[pick(STATUS_WEIGHTS)];
    row.duration = Math.exp(random.nextGaussian() * 1.2 + 3.0);
    row.traceId = traceId();
    row.method = METHODS[pick(METHOD_WEIGHTS)];
    int template = pick(TEMPLATE_WEIGHTS);
    String[] parts = TEMPLATE_PARTS[template];
    row.body = parts[0] + random.nextInt(100_000) + parts[1] + random.nextInt(1_000) + parts[2];
    row.timeout = TIMEOUT[template];
  }

  /**
   * @return the next event
   */
  public Event next() {
    Row r = new Row();
    next(r);
    Map<String, Object> f = new HashMap<>(16);
    f.put("ServiceName", r.serviceName());
    f.put("SeverityText", r.severityText());
    f.put("host", r.host);
    f.put("status", r.status);
    f.put("Duration", r.duration);
    f.put("TraceId", r.traceId);
    f.put("LogAttributes.http.method", r.method);
    f.put("Body", r.body);
    return new Event(r.timestamp, f);
  }

  /**
   * @param ts a timestamp of this data set
   * @return the timestamp field as written in NDJSON (ISO-8601 with offset)
   */
  public static String isoTimestamp(long ts) {
    return java.time.Instant.ofEpochMilli(ts).toString();
  }

  private static String[][] split(String[] templates) {
    String[][] out = new String[templates.length][];
    for (int i = 0; i < templates.length; i++) {
      String[] p = templates[i].split("%d", -1);
      if (p.length != 3) {
        throw new IllegalStateException("template needs exactly two %d: " + templates[i]);
      }
      out[i] = p;
    }
    return out;
  }

  private String traceId() {
    char[] c = new char[32];
    for (int i = 0; i < 32; i += 16) {
      long bits = random.nextLong();
      for (int j = 0; j < 16; j++) {
        c[i + j] = HEX[(int) (bits >>> (4 * j)) & 15];
      }
    }
    return new String(c);
  }

  private int pick(int[] weights) {
    int total = 0;
    for (int w : weights) {
      total += w;
    }
    int r = random.nextInt(total);
    for (int i = 0; i < weights.length; i++) {
      r -= weights[i];
      if (r < 0) {
        return i;
      }
    }
    return weights.length - 1;
  }
}
