package dev.chartwell.server.warmup;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Log events made up for the warm-up, as NDJSON request bodies: the fields of an OpenTelemetry log
 * (time, service, severity, body, trace id, attributes) with the value shapes real logs have: a few
 * skewed services, a thousand hosts, HTTP status codes, log-normal durations, random trace ids,
 * bodies from templates with numbers in them. The first {@link #ORDERED} of the events come in time
 * order over the first half of the time range, every field present: their segments each span a
 * stretch of time alone. The rest fall anywhere in the second half, some without a duration or a
 * status: their segments overlap, so that a query merges the partial results of several segments
 * per bucket. Queries over the whole range so meet both kinds, as they do on real data. The same
 * seed gives the same events.
 */
final class SyntheticLogs {
  static final String[] SEVERITIES = {"debug", "info", "warn", "error"};
  private static final int[] STATUS = {200, 200, 200, 201, 204, 301, 404, 500, 503};
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
  };

  /** The share of events in time order, all fields present. */
  static final double ORDERED = 0.6;

  private final SplittableRandom random;
  private final long start;
  private final long end;

  /**
   * @param seed the seed
   * @param start the first event's time, epoch milliseconds
   * @param end the last event's time, epoch milliseconds
   */
  SyntheticLogs(long seed, long start, long end) {
    this.random = new SplittableRandom(seed);
    this.start = start;
    this.end = end;
  }

  /**
   * @param from the index of the first event of the body among {@code total}
   * @param count how many events the body holds
   * @param total how many events all bodies hold together (they spread over the time range)
   * @return one NDJSON request body
   */
  byte[] body(int from, int count, int total) {
    StringBuilder b = new StringBuilder(count * 260);
    long half = (end - start) / 2;
    int ordered = (int) (total * ORDERED);
    double step = (double) half / Math.max(1, ordered);
    for (int i = from; i < from + count; i++) {
      boolean dense = i < ordered;
      long ts =
          dense
              ? start + (long) (i * step) // in order over the first half
              : start + half + random.nextLong(end - start - half + 1); // anywhere in the second
      int service = Math.min(9, (int) Math.floor(-Math.log(1 - random.nextDouble()) * 2.5));
      int sev = random.nextInt(100);
      String severity = SEVERITIES[sev < 20 ? 0 : sev < 85 ? 1 : sev < 95 ? 2 : 3];
      b.append("{\"Timestamp\":").append(ts);
      b.append(",\"ServiceName\":\"svc-").append(service).append('"');
      b.append(",\"host\":\"host-").append(random.nextInt(1000)).append('"');
      b.append(",\"TraceId\":\"");
      hex(b, random.nextLong());
      hex(b, random.nextLong());
      b.append('"');
      if (dense || random.nextInt(20) != 0) { // a few events carry no duration
        b.append(",\"Duration\":").append(Math.exp(random.nextGaussian() * 1.5 + 3));
      }
      String template = TEMPLATES[random.nextInt(TEMPLATES.length)];
      b.append(",\"Body\":\"")
          .append(
              String.format(Locale.ROOT, template, random.nextInt(100_000), random.nextInt(1_000)))
          .append('"');
      b.append(",\"SeverityText\":\"").append(severity).append('"');
      if (dense || random.nextInt(10) != 0) { // and a few no status
        b.append(",\"status\":").append(STATUS[random.nextInt(STATUS.length)]);
      }
      b.append(",\"LogAttributes\":{\"http.method\":\"")
          .append(METHODS[random.nextInt(METHODS.length)])
          .append("\"}}\n");
    }
    return b.toString().getBytes(StandardCharsets.UTF_8);
  }

  private static void hex(StringBuilder b, long v) {
    String h = Long.toHexString(v);
    b.append("0".repeat(16 - h.length())).append(h);
  }
}
