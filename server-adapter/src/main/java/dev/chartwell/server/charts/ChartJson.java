package dev.chartwell.server.charts;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.SerializedString;
import dev.chartwell.engine.query.ChartResult;
import dev.chartwell.server.http.JsonBody;
import java.io.IOException;
import java.util.List;

/**
 * The chart answer {@code {"data":[{"ts_bucket":..,"group":[..],"series_0.data":..},..]}} written
 * straight from the engine's result to the generator: no tree or map per row, field names encoded
 * once, counts written as integers and other values through Jackson's fast double writer. A series
 * without a value in a row has no key there, except with {@code ratio}, where it is {@code null}.
 */
final class ChartJson extends JsonBody {
  private static final SerializableString DATA = new SerializedString("data");
  private static final SerializableString TS_BUCKET = new SerializedString("ts_bucket");
  private static final SerializableString GROUP = new SerializedString("group");
  private static final SerializableString[] SERIES = seriesNames(5);

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
  public void writeTo(JsonGenerator out) throws IOException {
    List<ChartResult.Row> rows = result.rows();
    out.writeStartObject();
    out.writeFieldName(DATA);
    out.writeStartArray();
    for (ChartResult.Row row : rows) {
      out.writeStartObject();
      out.writeFieldName(TS_BUCKET);
      out.writeNumber(row.bucket());
      out.writeFieldName(GROUP);
      out.writeStartArray();
      for (String g : row.group()) {
        out.writeString(g);
      }
      out.writeEndArray();
      List<Number> values = row.values();
      SerializableString[] names =
          values.size() <= SERIES.length ? SERIES : seriesNames(values.size());
      for (int i = 0; i < values.size(); i++) {
        Number v = values.get(i);
        if (v instanceof Long l) {
          out.writeFieldName(names[i]);
          out.writeNumber(l.longValue());
        } else if (v != null) {
          out.writeFieldName(names[i]);
          out.writeNumber(v.doubleValue());
        } else if (ratio) {
          out.writeFieldName(names[i]);
          out.writeNull();
        }
      }
      out.writeEndObject();
    }
    out.writeEndArray();
    out.writeEndObject();
  }

  @Override
  public int sizeHint() {
    List<ChartResult.Row> rows = result.rows();
    if (rows.isEmpty()) {
      return 16;
    }
    ChartResult.Row first = rows.get(0);
    // {"ts_bucket":1767139200000,"group":[],} is 40 bytes; a value about 28, a group value 12.
    long perRow = 40 + 28L * first.values().size() + 12L * first.group().size();
    return (int) Math.min(Integer.MAX_VALUE - 64, 16 + perRow * rows.size());
  }

  private static SerializableString[] seriesNames(int n) {
    SerializableString[] names = new SerializableString[n];
    for (int i = 0; i < n; i++) {
      names[i] = new SerializedString("series_" + i + ".data");
    }
    return names;
  }
}
