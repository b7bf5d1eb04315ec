package dev.chartwell.engine.internal.segment;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Test helper: reads a segment back into plain rows, the timestamp under {@code "@ts"}. */
public final class SegmentRows {
  private SegmentRows() {}

  /**
   * @param segment a segment
   * @return its rows in row order
   */
  public static List<Map<String, Object>> read(Segment segment) {
    List<Map<String, Object>> rows = new ArrayList<>();
    for (int r = 0; r < segment.rows(); r++) {
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("@ts", segment.timestamp(r));
      for (Map.Entry<String, Column> e : segment.columns().entrySet()) {
        Column c = e.getValue();
        if (!c.isPresent(r)) {
          continue;
        }
        Object v;
        if (c instanceof LongColumn l) {
          v = l.get(r);
        } else if (c instanceof DoubleColumn d) {
          v = d.get(r);
        } else if (c instanceof BoolColumn b) {
          v = b.get(r);
        } else {
          v = ((StringColumn) c).get(r);
        }
        row.put(e.getKey(), v);
      }
      rows.add(row);
    }
    return rows;
  }
}
