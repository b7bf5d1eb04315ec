package dev.chartwell.server.prometheus;

import dev.chartwell.engine.AppendResult;
import dev.chartwell.engine.Event;
import dev.chartwell.engine.Source;
import dev.chartwell.otlp.OtelTable;
import dev.chartwell.prometheus.Labels;
import dev.chartwell.prometheus.SeriesData;
import dev.chartwell.prometheus.remote.RemoteWrite;
import dev.chartwell.server.charts.ServicePrincipal;
import dev.chartwell.server.charts.WriteRefusals;
import dev.chartwell.server.http.ApiException;
import dev.chartwell.server.http.ErrorCode;
import dev.chartwell.server.http.Request;
import dev.chartwell.server.http.Response;
import dev.chartwell.server.otlp.OtlpRoutes;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * {@code POST /api/v1/write}: a Prometheus remote write 1.0 request stored in the service's metric
 * tables. Each sample is a row of {@code otel_metrics_sum} (a counter, or a histogram's or
 * summary's {@code _bucket}, {@code _sum} and {@code _count} series, by the sender's metadata; by
 * those suffixes and {@code _total} when the sender gave none) or {@code otel_metrics_gauge}
 * (everything else), with {@code MetricName} the series' name, each other label an {@code
 * Attributes.<label>} column and {@code ScopeName} {@value MetricStore#REMOTE_WRITE_SCOPE}. A
 * staleness marker is a row flagged "no recorded value"; another NaN or an infinity, which a number
 * column cannot hold, is kept as text in {@value MetricStore#SPECIAL_VALUE}. A sample at or before
 * its series' newest stored time is skipped ({@link WriteLedger}), so a retried request stores
 * nothing twice.
 */
final class RemoteWriteRoute {
  private final Tenants tenants;
  private final LongSupplier clock;
  private final PromMeters meters;

  RemoteWriteRoute(Tenants tenants, LongSupplier clock, PromMeters meters) {
    this.tenants = tenants;
    this.clock = clock;
    this.meters = meters;
  }

  Response write(Request req) throws IOException {
    ServicePrincipal principal = OtlpRoutes.accepting(req);
    String version = req.header("X-Prometheus-Remote-Write-Version").orElse("0.1.0");
    if (!version.startsWith("0.1")) {
      throw new ApiException(
          ErrorCode.UNSUPPORTED_MEDIA_TYPE,
          "remote write " + version + " is not supported; send remote write 1.0 (0.1.0)");
    }
    String type = req.header("Content-Type").orElse("");
    if (type.contains("proto=") && !type.contains("proto=prometheus.WriteRequest")) {
      throw new ApiException(
          ErrorCode.UNSUPPORTED_MEDIA_TYPE,
          "only prometheus.WriteRequest (remote write 1.0) is accepted, got " + type);
    }
    byte[] body = req.bodyBytes();
    RemoteWrite.Request request;
    try {
      request = RemoteWrite.decode(body, req.maxBodyBytes());
    } catch (RemoteWrite.FormatException e) {
      throw ApiException.badRequest(e.getMessage());
    }
    meters.received(body.length, request.samples());
    ingest(principal.warehouseId(), request);
    return new Response(204, null, false);
  }

  /**
   * Stores a decoded request in a warehouse's metric tables, each sample at most once.
   *
   * @param warehouse the warehouse
   * @param request the request
   */
  void ingest(String warehouse, RemoteWrite.Request request) {
    Tenants.Tenant tenant = tenants.writing(warehouse);
    tenant.metadata(request.metadata());
    if (request.series().isEmpty()) {
      return;
    }
    synchronized (tenant.ledger()) {
      tenant.ledger().seed(tenant.store(), clock.getAsLong());
      store(tenant, request);
    }
  }

  private void store(Tenants.Tenant tenant, RemoteWrite.Request request) {
    Map<OtelTable, List<Event>> rows = new HashMap<>();
    Map<OtelTable, List<Labels>> owners = new HashMap<>();
    long skipped = 0;
    for (RemoteWrite.TimeSeries s : request.series()) {
      Labels labels = s.labels();
      String name = labels.metricName();
      RemoteWrite.Metadata meta = tenant.metadataOf(name);
      OtelTable table = counterLike(name, meta) ? OtelTable.SUM : OtelTable.GAUGE;
      Map<String, Object> common = new HashMap<>();
      common.put("MetricName", name);
      common.put("ScopeName", MetricStore.REMOTE_WRITE_SCOPE);
      if (meta != null) {
        common.put("MetricDescription", meta.help());
        common.put("MetricUnit", meta.unit());
      }
      if (table == OtelTable.SUM) {
        common.put("IsMonotonic", true);
        common.put("AggregationTemporality", 2L);
      }
      for (int i = 0; i < labels.size(); i++) {
        if (!labels.name(i).equals(Labels.NAME)) {
          common.put(SeriesLabels.ATTRIBUTES + labels.name(i), labels.value(i));
        }
      }
      long newest = tenant.ledger().newest(labels);
      for (int i = 0; i < s.timestamps().length; i++) {
        long t = s.timestamps()[i];
        if (t <= newest) {
          skipped++;
          continue;
        }
        newest = t;
        Map<String, Object> f = new HashMap<>(common);
        f.put("TimeUnixNanos", t * 1_000_000L);
        double v = s.values()[i];
        if (SeriesData.isStale(v)) {
          f.put("Flags", 1L);
        } else if (Double.isFinite(v)) {
          f.put("Value", v);
        } else {
          f.put(MetricStore.SPECIAL_VALUE, Double.isNaN(v) ? "NaN" : v > 0 ? "+Inf" : "-Inf");
        }
        rows.computeIfAbsent(table, k -> new ArrayList<>()).add(new Event(t, f));
        owners.computeIfAbsent(table, k -> new ArrayList<>()).add(labels);
      }
    }
    meters.skipped(skipped);
    Map<OtelTable, Source> sources = tenant.tables();
    List<String> problems = new ArrayList<>();
    long stored = 0;
    for (var e : rows.entrySet()) {
      List<Event> events = e.getValue();
      List<Labels> of = owners.get(e.getKey());
      for (int from = 0; from < events.size(); from += 4096) {
        List<Event> batch = events.subList(from, Math.min(events.size(), from + 4096));
        List<AppendResult.Rejection> rejected;
        try {
          rejected = sources.get(e.getKey()).appendBatch(batch).rejections();
        } catch (RuntimeException x) {
          throw WriteRefusals.answer(
              x,
              stored
                  + " samples of this request were stored before; a retry stores only the"
                  + " others");
        }
        Set<Integer> bad = new HashSet<>();
        for (var r : rejected) {
          bad.add(r.index());
          if (problems.size() < 10) {
            problems.add(of.get(from + r.index()) + ": " + r.reason());
          }
        }
        for (int i = 0; i < batch.size(); i++) {
          if (!bad.contains(i)) {
            tenant.ledger().stored(of.get(from + i), batch.get(i).timestamp());
            stored++;
          }
        }
      }
    }
    meters.stored(stored);
    if (!problems.isEmpty()) {
      throw ApiException.badRequest(
          String.format(
              Locale.ROOT,
              "%d samples were stored, some were refused (they will never be accepted): %s",
              stored,
              String.join("; ", problems)));
    }
  }

  /**
   * Whether a series goes to the sum table: counters, and the cumulative series of histograms and
   * summaries. Without metadata (Prometheus sends it once a minute, often after the first samples),
   * by the suffixes Prometheus' naming rules and OpenMetrics reserve for those series: {@code
   * _total}, {@code _bucket}, {@code _count} and {@code _sum} — so that a histogram's series land
   * in the table its metadata will name, not first in the gauge table and then in the sum table.
   */
  static boolean counterLike(String name, RemoteWrite.Metadata meta) {
    if (meta == null) {
      return name.endsWith("_total")
          || name.endsWith("_bucket")
          || name.endsWith("_count")
          || name.endsWith("_sum");
    }
    return switch (meta.type()) {
      case COUNTER -> true;
      case HISTOGRAM, SUMMARY ->
          name.endsWith("_bucket") || name.endsWith("_count") || name.endsWith("_sum");
      default -> false;
    };
  }
}
