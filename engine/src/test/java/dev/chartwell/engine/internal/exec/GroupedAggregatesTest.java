package dev.chartwell.engine.internal.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chartwell.engine.AggFn;
import dev.chartwell.engine.ChartQuery;
import dev.chartwell.engine.ChartResult;
import dev.chartwell.engine.Engine;
import dev.chartwell.engine.Event;
import dev.chartwell.engine.Granularity;
import dev.chartwell.engine.Series;
import dev.chartwell.engine.Source;
import dev.chartwell.engine.SourceSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Grouped aggregates over many rows per (bucket, group): every numeric aggregate, grouped by one
 * string field, against a computation over the events themselves, on enough rows that each group
 * holds many values in each bucket (so that exact quantiles take the heap way and quickselect)
 * across several segments, with rows that lack the group field and a filter or none.
 */
class GroupedAggregatesTest {
  private static final long T0 = 1_700_000_040_000L - 1_700_000_040_000L % 3_600_000;
  private static final String[] SERVICES = {"api", "db", "web", "queue"};

  private final Engine engine = Engine.builder().segmentRows(700).workerThreads(2).build();
  private final Source logs = engine.createSource(SourceSpec.logs("logs"));
  private final List<Event> events = new ArrayList<>();

  @AfterEach
  void close() {
    engine.close();
  }

  @Test
  void everyAggregateEqualsTheEventsOwn() {
    Random random = new Random(7);
    for (int i = 0; i < 6_000; i++) {
      Map<String, Object> f = new LinkedHashMap<>();
      if (random.nextInt(10) != 0) {
        f.put("svc", SERVICES[Math.min(random.nextInt(5), 3)]);
      }
      f.put("level", random.nextInt(3) == 0 ? "error" : "info");
      f.put("lat", random.nextBoolean() ? random.nextInt(50) : Math.exp(random.nextGaussian()));
      // mostly in time order, some late, over 20 minutes
      long ts = T0 + i * 200L - (random.nextInt(20) == 0 ? random.nextInt(90_000) : 0);
      events.add(new Event(ts, f));
    }
    logs.appendBatch(events);
    logs.awaitSealing();

    int checked = 0;
    for (String where : new String[] {null, "level:error"}) {
      for (AggFn fn :
          List.of(
              AggFn.COUNT,
              AggFn.SUM,
              AggFn.AVG,
              AggFn.MIN,
              AggFn.MAX,
              AggFn.P50,
              AggFn.P95,
              AggFn.P99,
              AggFn.QUANTILE)) {
        String field = fn == AggFn.COUNT ? null : "lat";
        Series series =
            new Series(
                logs.id(),
                fn,
                field,
                fn == AggFn.QUANTILE ? 0.3 : null,
                where,
                null,
                List.of("svc"));
        ChartResult result =
            engine.query(
                new ChartQuery(
                    T0,
                    T0 + 3_600_000,
                    Granularity.named("1m").orElseThrow(),
                    List.of(series),
                    null));
        Map<List<Object>, Number> expected = expected(fn, where);
        assertEquals(expected.size(), result.rows().size(), fn + " where " + where);
        for (ChartResult.Row row : result.rows()) {
          Number want = expected.get(List.of(row.bucket(), row.group().get(0)));
          double got = row.values().get(0).doubleValue();
          String what = fn + " where " + where + " at " + row.bucket() + " " + row.group();
          assertEquals(want.doubleValue(), got, 1e-9 * Math.max(1, Math.abs(got)), what);
          checked++;
        }
      }
    }
    assertTrue(checked > 700, "rows checked: " + checked);
  }

  /**
   * The aggregate of the events' own values per (minute, service), "" for no service, from the
   * query's start (the late events of the first minutes fall before it).
   */
  private Map<List<Object>, Number> expected(AggFn fn, String where) {
    Map<List<Object>, List<Double>> values = new HashMap<>();
    for (Event e : events) {
      if (e.timestamp() < T0 || (where != null && !"error".equals(e.fields().get("level")))) {
        continue;
      }
      long minute = e.timestamp() - Math.floorMod(e.timestamp(), 60_000L);
      Object svc = e.fields().getOrDefault("svc", "");
      values
          .computeIfAbsent(List.of(minute, svc), k -> new ArrayList<>())
          .add(((Number) e.fields().get("lat")).doubleValue());
    }
    Map<List<Object>, Number> out = new HashMap<>();
    values.forEach(
        (key, list) -> {
          double[] v = list.stream().mapToDouble(Double::doubleValue).toArray();
          Arrays.sort(v);
          double sum = Arrays.stream(v).sum();
          out.put(
              key,
              switch (fn) {
                case COUNT -> v.length;
                case SUM -> sum;
                case AVG -> sum / v.length;
                case MIN -> v[0];
                case MAX -> v[v.length - 1];
                case P50 -> quantile(v, 0.5);
                case P95 -> quantile(v, 0.95);
                case P99 -> quantile(v, 0.99);
                default -> quantile(v, 0.3);
              });
        });
    return out;
  }

  private static double quantile(double[] sorted, double level) {
    double h = (sorted.length - 1) * level;
    int lo = (int) Math.floor(h);
    return lo + 1 < sorted.length
        ? sorted[lo] + (h - lo) * (sorted[lo + 1] - sorted[lo])
        : sorted[lo];
  }
}
