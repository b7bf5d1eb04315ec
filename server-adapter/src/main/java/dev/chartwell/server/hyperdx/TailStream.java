package dev.chartwell.server.hyperdx;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.chartwell.engine.QueryControl;
import dev.chartwell.engine.SearchOrder;
import dev.chartwell.engine.SearchQuery;
import dev.chartwell.engine.SearchResult;
import dev.chartwell.engine.WhereLanguage;
import dev.chartwell.engine.internal.source.Snapshots;
import dev.chartwell.server.http.ApiException;
import dev.chartwell.server.http.StreamSink;
import java.io.ByteArrayOutputStream;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * One live tail: follows its engine source's count of accepted events and, each time it moved,
 * searches its lateness window for the events not yet accounted for, sends the newest of them
 * within its rate and reports the rest as skipped; a heartbeat line when nothing was written for a
 * while. Runs on the hub's scheduler, one round at a time, and never while a write is in flight (a
 * slow client slows its own tail, nobody else's).
 */
final class TailStream {
  /** How far past the server's clock an event's timestamp may be and still be streamed. */
  static final long FUTURE_SKEW_MILLIS = 60_000;

  /** One tail's request. */
  record Spec(
      EventSource source,
      String where,
      WhereLanguage language,
      List<SelectList.Item> items,
      int maxPerSecond,
      long limit,
      long latenessMillis) {}

  private final Spec spec;
  private final Clock clock;
  private final ObjectMapper mapper;
  private final long heartbeatNanos;
  private final Runnable release;
  private final long floor;
  private final TailWindow window;
  private StreamSink sink;
  private ScheduledFuture<?> tick;
  private volatile QueryControl control = new QueryControl();
  private volatile boolean stopRequested;
  private boolean ended;
  private long lastSeq = -1;
  private boolean retry;
  private double tokens;
  private long refilledNanos;
  private long wroteNanos;
  private long newestSent;
  private long sent;

  /**
   * @param spec what to follow
   * @param clock the server's clock (the window's end)
   * @param mapper writes the lines
   * @param heartbeatNanos the longest silence before a heartbeat line
   * @param release gives the service's tail slot back, once
   */
  TailStream(Spec spec, Clock clock, ObjectMapper mapper, long heartbeatNanos, Runnable release) {
    this.spec = spec;
    this.clock = clock;
    this.mapper = mapper;
    this.heartbeatNanos = heartbeatNanos;
    this.release = release;
    this.floor = clock.millis();
    this.window = new TailWindow(floor);
    this.newestSent = floor;
    this.tokens = spec.maxPerSecond();
  }

  /**
   * Writes the start line and begins following.
   *
   * @param sink the response
   * @param scheduler where the rounds run
   * @param everyMillis how often the source's count is looked at
   */
  void start(StreamSink sink, ScheduledExecutorService scheduler, long everyMillis) {
    Map<String, Object> start = new LinkedHashMap<>();
    start.put("type", "start");
    start.put("sourceId", spec.source().id());
    start.put("from", Instant.ofEpochMilli(floor).toString());
    start.put("maxPerSecond", spec.maxPerSecond());
    start.put("latenessSeconds", spec.latenessMillis() / 1000);
    synchronized (this) {
      this.sink = sink;
      refilledNanos = System.nanoTime();
      wroteNanos = refilledNanos;
      sink.onClose(reason -> ended());
      sink.onServerStop(() -> stopRequested = true);
      sink.write(line(start), () -> {});
      tick =
          scheduler.scheduleWithFixedDelay(
              this::tick, everyMillis, everyMillis, TimeUnit.MILLISECONDS);
    }
  }

  /** The stream ended (for any reason): no more rounds, the slot goes back. */
  private void ended() {
    synchronized (this) {
      if (ended) {
        return;
      }
      ended = true;
      if (tick != null) {
        tick.cancel(false);
      }
    }
    control.cancel("the live tail ended");
    release.run();
  }

  private synchronized void tick() {
    if (ended || sink.writing()) {
      return;
    }
    try {
      if (stopRequested) {
        finish("server stopping", null);
        return;
      }
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      long seq = Snapshots.acceptedEvents(spec.source().engineSource());
      if (seq != lastSeq || retry) {
        lastSeq = seq;
        round(out);
      }
      long now = System.nanoTime();
      if (out.size() == 0 && now - wroteNanos >= heartbeatNanos) {
        out.writeBytes(line(Map.of("type", "heartbeat", "time", clock.instant().toString())));
      }
      if (out.size() > 0) {
        wroteNanos = now;
        boolean done = sent >= spec.limit();
        sink.write(out.toByteArray(), done ? () -> finishAfterWrite("limit reached") : () -> {});
      }
    } catch (ApiException e) {
      finish("error", e.getMessage());
    } catch (dev.chartwell.engine.EngineClosedException e) {
      finish("server stopping", null);
    } catch (RuntimeException e) {
      finish("error", "the live tail failed: " + e.getMessage());
    }
  }

  private synchronized void finishAfterWrite(String reason) {
    finish(reason, null);
  }

  /** Writes the end line and closes the stream. */
  private void finish(String reason, String message) {
    if (ended) {
      return;
    }
    Map<String, Object> end = new LinkedHashMap<>();
    end.put("type", "end");
    end.put("reason", reason);
    if (message != null) {
      end.put("message", message);
    }
    end.put("sent", sent);
    if (!sink.write(line(end), sink::close)) {
      sink.close();
    }
  }

  /** One search of the window; the lines of what it found go to {@code out}. */
  private void round(ByteArrayOutputStream out) {
    long nowNanos = System.nanoTime();
    tokens =
        Math.min(
            spec.maxPerSecond(), tokens + (nowNanos - refilledNanos) / 1e9 * spec.maxPerSecond());
    refilledNanos = nowNanos;
    int budget = (int) Math.min(tokens, spec.limit() - sent);
    if (budget <= 0) {
      retry = true; // look again once tokens came back
      return;
    }
    retry = false;
    long now = clock.millis();
    long end = now + FUTURE_SKEW_MILLIS;
    window.advance(Math.max(floor, Math.min(newestSent, now) - spec.latenessMillis()));
    int limit = (int) Math.min(SearchQuery.MAX_LIMIT, (long) budget + window.size());
    SearchResult r = search(window.start(), end, limit, columns());
    List<Long> times = new ArrayList<>(r.rows().size());
    List<Long> prints = new ArrayList<>(r.rows().size());
    String ts = r.timestampColumn();
    for (Map<String, Object> row : r.rows()) {
      times.add(((Number) row.get(ts)).longValue());
      prints.add(TailWindow.fingerprint(row.toString()));
    }
    List<Integer> fresh = window.fresh(times, prints);
    int send = Math.min(budget, fresh.size());
    for (int i : fresh) {
      window.add(times.get(i), prints.get(i));
    }
    long skipped = fresh.size() - send;
    if (r.rows().size() == limit) {
      // More matched than this search read: the unread ones are skipped, and the window moves past
      // the newest found (its millisecond included) so that none of them is found again.
      SearchResult all = search(window.start(), end, SearchQuery.MAX_LIMIT, List.of(ts));
      skipped += Math.max(0, all.rows().size() - window.size());
      window.advance(times.get(0) + 1);
    }
    for (int k = send - 1; k >= 0; k--) { // oldest first: a reader putting each on top ends newest
      int i = fresh.get(k);
      newestSent = Math.max(newestSent, times.get(i));
      out.writeBytes(line(Map.of("type", "event", "data", row(r.rows().get(i), ts))));
    }
    sent += send;
    tokens -= send;
    if (skipped > 0) {
      out.writeBytes(
          line(Map.of("type", "skipped", "count", skipped, "maxPerSecond", spec.maxPerSecond())));
    }
  }

  private List<String> columns() {
    return spec.items() == null
        ? null
        : spec.items().stream().map(SelectList.Item::column).distinct().toList();
  }

  private SearchResult search(long from, long to, int limit, List<String> columns) {
    control = new QueryControl();
    if (ended) {
      control.cancel("the live tail ended");
    }
    List<String> cols = columns;
    if (cols != null && !cols.contains(spec.source().timestamp())) {
      cols = new ArrayList<>(cols);
      cols.add(0, spec.source().timestamp());
    }
    return spec.source()
        .search(
            new SearchQuery(
                spec.source().queryId(),
                from,
                to,
                spec.where(),
                spec.language(),
                cols,
                SearchOrder.NEWEST_FIRST,
                limit,
                0),
            control);
  }

  /** The event as search answers it: the selected columns, the timestamp as ISO-8601. */
  private Map<String, Object> row(Map<String, Object> r, String ts) {
    Map<String, Object> out = new LinkedHashMap<>();
    if (spec.items() == null) {
      r.forEach((k, v) -> out.put(k, value(k, v, ts)));
    } else {
      for (SelectList.Item i : spec.items()) {
        out.put(i.key(), value(i.column(), r.get(i.column()), ts));
      }
    }
    return out;
  }

  private static Object value(String column, Object v, String ts) {
    return column.equals(ts) && v instanceof Long ms ? Instant.ofEpochMilli(ms).toString() : v;
  }

  private byte[] line(Object o) {
    try {
      byte[] b = mapper.writeValueAsBytes(o);
      byte[] withNewline = java.util.Arrays.copyOf(b, b.length + 1);
      withNewline[b.length] = '\n';
      return withNewline;
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a tail line cannot be written as JSON", e);
    }
  }
}
