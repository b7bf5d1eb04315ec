package dev.chartwell.server.prometheus;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chartwell.otlp.OtelTable;
import dev.chartwell.prometheus.LabelMatcher;
import dev.chartwell.prometheus.Labels;
import dev.chartwell.prometheus.SeriesData;
import dev.chartwell.prometheus.remote.RemoteWrite;
import dev.chartwell.server.catalog.Catalog;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Remote write into the metric tables and back out as series, without HTTP. */
class RemoteWriteStoreTest {
  static final long T0 = 1_767_225_600_000L; // 2026-01-01
  static final String WAREHOUSE = "w1";

  @TempDir Path dir;
  MetricStores stores;
  Tenants tenants;
  RemoteWriteRoute route;

  @BeforeEach
  void open() throws Exception {
    stores = new MetricStores(dir);
    restart();
  }

  /** New per-warehouse state over the same tables, as after a server restart. */
  void restart() {
    tenants = stores.tenants();
    route =
        new RemoteWriteRoute(
            tenants, () -> T0 + 3_600_000L, new PromMeters(new SimpleMeterRegistry()));
  }

  @AfterEach
  void close() throws Exception {
    stores.close();
  }

  static RemoteWrite.Request request(
      Labels labels, long[] t, double[] v, RemoteWrite.Metadata... metadata) {
    return new RemoteWrite.Request(
        List.of(new RemoteWrite.TimeSeries(labels, t, v)), List.of(metadata));
  }

  List<SeriesData> select(String name) {
    return tenants
        .reading(WAREHOUSE)
        .store()
        .select(
            List.of(new LabelMatcher(Labels.NAME, LabelMatcher.Type.EQUAL, name)),
            T0 - 86_400_000L,
            T0 + 86_400_000L);
  }

  @Test
  void samplesComeBackExactlyWithStalenessAndSpecialValues() {
    Labels up = Labels.of("__name__", "up", "job", "prometheus", "instance", "localhost:9090");
    long[] t = {T0, T0 + 15_000, T0 + 30_000, T0 + 45_000, T0 + 60_000};
    double[] v = {1, Double.NaN, Double.POSITIVE_INFINITY, SeriesData.STALE_NAN, 0.25};
    route.ingest(WAREHOUSE, request(up, t, v));
    List<SeriesData> got = select("up");
    assertEquals(1, got.size());
    assertEquals(up, got.get(0).labels());
    assertArrayEquals(t, got.get(0).timestamps());
    double[] back = got.get(0).values();
    assertEquals(1.0, back[0]);
    assertTrue(Double.isNaN(back[1]) && !SeriesData.isStale(back[1]));
    assertEquals(Double.POSITIVE_INFINITY, back[2]);
    assertTrue(SeriesData.isStale(back[3]));
    assertEquals(0.25, back[4]);
  }

  @Test
  void aRetriedRequestStoresNothingTwiceEvenAfterARestart() {
    Labels c = Labels.of("__name__", "http_requests_total", "job", "api");
    long[] t = {T0, T0 + 15_000, T0 + 30_000};
    double[] v = {1, 2, 3};
    RemoteWrite.Request r = request(c, t, v);
    route.ingest(WAREHOUSE, r);
    route.ingest(WAREHOUSE, r);
    assertEquals(3, select("http_requests_total").get(0).size());
    assertEquals(3, rows(OtelTable.SUM));
    restart();
    route.ingest(WAREHOUSE, r);
    assertEquals(3, rows(OtelTable.SUM), "the ledger is filled from the tables after a restart");
    // Newer samples after a partial overlap are stored; an older one is skipped.
    route.ingest(
        WAREHOUSE,
        request(c, new long[] {T0 - 1, T0 + 30_000, T0 + 45_000}, new double[] {0, 3, 4}));
    SeriesData s = select("http_requests_total").get(0);
    assertArrayEquals(new long[] {T0, T0 + 15_000, T0 + 30_000, T0 + 45_000}, s.timestamps());
    assertArrayEquals(new double[] {1, 2, 3, 4}, s.values());
  }

  @Test
  void metadataChoosesTheTable() {
    RemoteWrite.Metadata counter =
        new RemoteWrite.Metadata(RemoteWrite.MetricType.COUNTER, "jobs_done", "jobs", "");
    RemoteWrite.Metadata histogram =
        new RemoteWrite.Metadata(RemoteWrite.MetricType.HISTOGRAM, "latency", "", "seconds");
    route.ingest(WAREHOUSE, new RemoteWrite.Request(List.of(), List.of(counter, histogram)));
    route.ingest(
        WAREHOUSE, request(Labels.of("__name__", "jobs_done"), new long[] {T0}, new double[] {5}));
    route.ingest(
        WAREHOUSE,
        request(
            Labels.of("__name__", "latency_bucket", "le", "0.5"),
            new long[] {T0},
            new double[] {7}));
    route.ingest(
        WAREHOUSE,
        request(Labels.of("__name__", "temperature"), new long[] {T0}, new double[] {20}));
    assertEquals(2, rows(OtelTable.SUM));
    assertEquals(1, rows(OtelTable.GAUGE));
    assertEquals(
        List.of("jobs_done", "latency_bucket", "temperature"),
        tenants.reading(WAREHOUSE).store().labelValues(Labels.NAME, List.of(), 0, Long.MAX_VALUE));
  }

  @Test
  void otlpRowsReadUnderPrometheusNames() {
    tenants.writing(WAREHOUSE);
    var sum =
        stores
            .catalog
            .engineTable(WAREHOUSE, Catalog.DEFAULT_DATABASE, "otel_metrics_sum")
            .orElseThrow();
    java.util.Map<String, Object> f = new java.util.HashMap<>();
    f.put("MetricName", "http.server.requests");
    f.put("IsMonotonic", true);
    f.put("AggregationTemporality", 2L);
    f.put("ResourceAttributes.service.name", "api");
    f.put("ResourceAttributes.host.name", "h1");
    f.put("Attributes.http.method", "GET");
    f.put("Value", 7.0);
    java.util.Map<String, Object> delta = new java.util.HashMap<>(f);
    delta.put("MetricName", "jobs");
    delta.put("AggregationTemporality", 1L);
    sum.appendBatch(
        List.of(new dev.chartwell.engine.Event(T0, f), new dev.chartwell.engine.Event(T0, delta)));
    List<SeriesData> got = select("http_server_requests_total");
    assertEquals(1, got.size());
    assertEquals(
        Labels.of("__name__", "http_server_requests_total", "http_method", "GET", "job", "api"),
        got.get(0).labels());
    assertEquals(List.of(), select("jobs_total"), "delta sums are left out");
  }

  long rows(OtelTable t) {
    return stores
        .catalog
        .engineTable(WAREHOUSE, Catalog.DEFAULT_DATABASE, t.tableName())
        .orElseThrow()
        .stats()
        .rows();
  }
}
