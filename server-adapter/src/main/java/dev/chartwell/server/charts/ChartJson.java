package dev.chartwell.server.charts;

import dev.chartwell.engine.ChartResult;
import dev.chartwell.engine.internal.source.JsonStrings;
import dev.chartwell.server.http.JsonBody;
import dev.chartwell.server.http.JsonOutput;
import java.nio.charset.StandardCharsets;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The chart answer {@code {"data":[{"ts_bucket":..,"group":[..],"series_0.data":..},..]}} written
 * as bytes straight from the engine's result: no tree, map or generator call per row, the
 * punctuation and names around each value encoded once, each group list encoded once (rows share
 * their group lists), counts written as integers and other values through Jackson's fast double
 * writer. A series without a value in a row has no key there, except with {@code ratio}, where it
 * is {@code null}.
 */
final class ChartJson extends JsonBody {
  private static final byte[] START = JsonOutput.ascii("{\"data\":[");
  private static final byte[] END = JsonOutput.ascii("]}");
  private static final byte[] TS_BUCKET = JsonOutput.ascii("{\"ts_bucket\":");
  private static final byte[] GROUP = JsonOutput.ascii(",\"group\":");
  private static final byte[][] SERIES = seriesNames(5);

  /** Group lists encoded once per answer, up to this many distinct lists. */
  private static final int ENCODED_GROUPS = 4096;

  private final ChartResult result;
  private final boolean ratio;

  /**
   * @param result the engine's answer
   * @param ratio whether the query asked for {@code seriesReturnType: ratio}
   */
  ChartJson(ChartResult result, boolean ratio) {
    this.result = result;
    this.ratio = ratio;
  }

  @Override
  public void writeTo(JsonOutput out) {
    List<ChartResult.Row> rows = result.rows();
    Map<List<String>, byte[]> groups = new IdentityHashMap<>();
    out.raw(START);
    for (int r = 0; r < rows.size(); r++) {
      ChartResult.Row row = rows.get(r);
      if (r > 0) {
        out.raw(',');
      }
      out.raw(TS_BUCKET);
      out.number(row.bucket());
      out.raw(GROUP);
      out.raw(encoded(row.group(), groups));
      List<Number> values = row.values();
      byte[][] names = values.size() <= SERIES.length ? SERIES : seriesNames(values.size());
      for (int i = 0; i < values.size(); i++) {
        Number v = values.get(i);
        if (v instanceof Long l) {
          out.raw(names[i]);
          out.number(l.longValue());
        } else if (v != null) {
          out.raw(names[i]);
          out.number(v.doubleValue());
        } else if (ratio) {
          out.raw(names[i]);
          out.nul();
        }
      }
      out.raw('}');
    }
    out.raw(END);
  }

  /** A group list as a JSON array, from the answer's cache when it was met before. */
  private static byte[] encoded(List<String> group, Map<List<String>, byte[]> cache) {
    byte[] json = cache.get(group);
    if (json == null) {
      StringBuilder array = new StringBuilder("[");
      for (int i = 0; i < group.size(); i++) {
        if (i > 0) {
          array.append(',');
        }
        JsonStrings.quote(group.get(i), array);
      }
      json = array.append(']').toString().getBytes(StandardCharsets.UTF_8);
      if (cache.size() < ENCODED_GROUPS) {
        cache.put(group, json);
      }
    }
    return json;
  }

  @Override
  public int sizeHint() {
    List<ChartResult.Row> rows = result.rows();
    if (rows.isEmpty()) {
      return 16;
    }
    ChartResult.Row first = rows.get(0);
    // {"ts_bucket":1767139200000,"group":[],} is 40 bytes; a value up to about 34 (its name, 16,
    // and a double's 17 digits and point), a group value 12. An estimate short by a few bytes a
    // row doubled the buffer: a chart of a day by minute and service (1.16 MB) took a 1.1 MiB
    // array and then a 2.2 MiB one, both past the size from which G1 gives an array regions of
    // its own.
    long perRow = 40 + 34L * first.values().size() + 12L * first.group().size();
    return (int) Math.min(Integer.MAX_VALUE - 64, 16 + perRow * rows.size());
  }

  private static byte[][] seriesNames(int n) {
    byte[][] names = new byte[n][];
    for (int i = 0; i < n; i++) {
      names[i] = JsonOutput.ascii(",\"series_" + i + ".data\":");
    }
    return names;
  }
}
