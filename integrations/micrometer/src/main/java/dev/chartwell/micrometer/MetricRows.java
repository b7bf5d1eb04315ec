package dev.chartwell.micrometer;

import dev.chartwell.engine.EventBatch;
import dev.chartwell.integrations.OtelTables;
import io.micrometer.core.instrument.Tag;
import java.util.List;

/**
 * Metric points as rows of one {@code otel_metrics_*} table, with the columns OTLP ingestion fills
 * for a data point: the metric's name, description and unit, the service, the point's time and
 * start time, its tags as {@code Attributes.<key>}, and the columns of its kind of point.
 */
final class MetricRows {
  /** The longest column name the engine accepts. */
  private static final int MAX_NAME_LENGTH = 256;

  final EventBatch batch = new EventBatch();
  private final String serviceName;
  private final int nanos;
  private final int start;
  private final int service;
  private final int resourceService;
  private final int scope;
  private final int name;
  private final int description;
  private final int unit;
  private final int flags;
  private final int value;
  private final int temporality;
  private final int monotonic;
  private final int count;
  private final int sum;
  private final int max;
  private final int bucketCounts;
  private final int bounds;

  MetricRows(String serviceName) {
    this.serviceName = serviceName;
    nanos = batch.field("TimeUnixNanos");
    start = batch.field("StartTimeUnix");
    service = batch.field("ServiceName");
    resourceService = batch.field("ResourceAttributes.service.name");
    scope = batch.field("ScopeName");
    name = batch.field("MetricName");
    description = batch.field("MetricDescription");
    unit = batch.field("MetricUnit");
    flags = batch.field("Flags");
    value = batch.field("Value");
    temporality = batch.field("AggregationTemporality");
    monotonic = batch.field("IsMonotonic");
    count = batch.field("Count");
    sum = batch.field("Sum");
    max = batch.field("Max");
    bucketCounts = batch.field("BucketCounts");
    bounds = batch.field("ExplicitBounds");
  }

  /** The columns every point has; a kind's own columns follow, then {@link EventBatch#endEvent}. */
  private void begin(Point p) {
    batch.startEvent();
    batch.timestamp(Math.floorDiv(p.timeNanos, 1_000_000L));
    batch.putLong(nanos, p.timeNanos);
    batch.putLong(start, p.startNanos);
    batch.putString(service, serviceName);
    batch.putString(resourceService, serviceName);
    batch.putString(scope, ChartwellMeterRegistry.SCOPE_NAME);
    batch.putString(name, p.name);
    batch.putString(description, p.description == null ? "" : p.description);
    batch.putString(unit, p.unit == null ? "" : p.unit);
    batch.putLong(flags, 0);
    for (Tag t : p.tags) {
      String column = "Attributes." + t.getKey();
      if (column.length() <= MAX_NAME_LENGTH) {
        batch.putString(batch.field(column), t.getValue());
      }
    }
  }

  void gauge(Point p, double v) {
    if (!Double.isFinite(v)) {
      return; // a gauge without a value now (its object is gone): no point
    }
    begin(p);
    batch.putDouble(value, v);
    batch.endEvent();
  }

  void monotonicSum(Point p, double total) {
    if (!Double.isFinite(total)) {
      return;
    }
    begin(p);
    batch.putDouble(value, total);
    batch.putLong(temporality, OtelTables.CUMULATIVE);
    batch.putBoolean(monotonic, true);
    batch.endEvent();
  }

  void histogram(Point p, long n, double total, double maximum, Buckets buckets) {
    begin(p);
    batch.putLong(count, n);
    if (Double.isFinite(total)) {
      batch.putDouble(sum, total);
    }
    if (Double.isFinite(maximum)) {
      batch.putDouble(max, maximum);
    }
    batch.putString(bucketCounts, buckets == null ? "[" + n + "]" : buckets.countsJson());
    batch.putString(bounds, buckets == null ? "[]" : buckets.boundsJson());
    batch.putLong(temporality, OtelTables.CUMULATIVE);
    batch.endEvent();
  }

  /** What every point of one meter at one publication has. */
  static final class Point {
    final long timeNanos;
    final long startNanos;
    final String name;
    final String description;
    final String unit;
    final List<Tag> tags;

    Point(
        long timeNanos,
        long startNanos,
        String name,
        String description,
        String unit,
        List<Tag> tags) {
      this.timeNanos = timeNanos;
      this.startNanos = startNanos;
      this.name = name;
      this.description = description;
      this.unit = unit;
      this.tags = tags;
    }

    Point named(String suffixedName, String otherUnit) {
      return new Point(timeNanos, startNanos, suffixedName, description, otherUnit, tags);
    }
  }
}
