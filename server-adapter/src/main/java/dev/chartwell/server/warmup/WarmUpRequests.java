package dev.chartwell.server.warmup;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.chartwell.engine.ChartQuery;
import dev.chartwell.engine.Series;
import dev.chartwell.engine.SeriesReturnType;
import dev.chartwell.engine.internal.warmup.SyntheticLogs;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The warm-up's requests to its throwaway server: the engine's synthetic log events ({@link
 * SyntheticLogs}) as NDJSON ingestion bodies, and the engine's warm-up queries ({@link
 * dev.chartwell.engine.internal.warmup.WarmUpQueries}) as {@code POST /api/v2/charts/series}
 * bodies, so that the server's warm-up also runs its HTTP, JSON and request-parsing code.
 */
final class WarmUpRequests {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private WarmUpRequests() {}

  /**
   * @param logs the events' generator
   * @param from the index of the first event of the body among {@code total}
   * @param count how many events the body holds
   * @param total how many events all bodies hold together
   * @return one NDJSON request body
   */
  static byte[] events(SyntheticLogs logs, int from, int count, int total) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(count * 260);
    SyntheticLogs.Row row = new SyntheticLogs.Row();
    try (JsonGenerator g = MAPPER.getFactory().createGenerator(out)) {
      g.setRootValueSeparator(null);
      for (int i = from; i < from + count; i++) {
        logs.next(i, total, row);
        g.writeStartObject();
        g.writeNumberField("Timestamp", row.timestamp);
        g.writeStringField("ServiceName", row.service);
        g.writeStringField("host", row.host);
        g.writeStringField("TraceId", row.traceId);
        if (!Double.isNaN(row.duration)) {
          g.writeNumberField("Duration", row.duration);
        }
        g.writeStringField("Body", row.body);
        g.writeStringField("SeverityText", row.severity);
        if (row.status != 0) {
          g.writeNumberField("status", row.status);
        }
        g.writeObjectFieldStart("LogAttributes");
        g.writeStringField("http.method", row.method);
        g.writeEndObject();
        g.writeEndObject();
        g.flush();
        out.write('\n');
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e); // into memory: does not happen
    }
    return out.toByteArray();
  }

  /**
   * @param queries chart queries over events
   * @return each as a chart request body
   */
  static List<String> charts(List<ChartQuery> queries) {
    List<String> bodies = new ArrayList<>(queries.size());
    for (ChartQuery q : queries) {
      bodies.add(chart(q));
    }
    return bodies;
  }

  private static String chart(ChartQuery q) {
    var body = MAPPER.createObjectNode();
    body.put("startTime", q.startTime());
    body.put("endTime", q.endTime());
    body.put("granularity", q.granularity().name());
    if (q.returnType() == SeriesReturnType.RATIO) {
      body.put("seriesReturnType", "ratio");
    }
    var series = body.putArray("series");
    for (Series s : q.series()) {
      var o = series.addObject();
      o.put("sourceId", s.sourceId());
      o.put("aggFn", s.aggFn().wireName());
      if (s.field() != null) {
        o.put("field", s.field());
      }
      if (s.level() != null) {
        o.put("level", s.level());
      }
      if (s.where() != null) {
        o.put("where", s.where());
        o.put("whereLanguage", s.whereLanguage().name().toLowerCase(Locale.ROOT));
      }
      if (!s.groupBy().isEmpty()) {
        var groupBy = o.putArray("groupBy");
        s.groupBy().forEach(groupBy::add);
      }
    }
    return body.toString();
  }
}
