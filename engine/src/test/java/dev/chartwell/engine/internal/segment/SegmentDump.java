package dev.chartwell.engine.internal.segment;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.roaringbitmap.buffer.ImmutableRoaringBitmap;

/**
 * Test helper: everything a query can read of a segment (rows, zone maps, dictionaries, postings,
 * value and token indexes, presence), as plain values that compare with {@code equals}.
 */
public final class SegmentDump {
  private SegmentDump() {}

  /**
   * @param s a segment
   * @return its contents
   */
  public static Map<String, Object> of(Segment s) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("id", s.id());
    out.put("rows", s.rows());
    out.put("min", s.rows() == 0 ? null : s.minTimestamp());
    out.put("max", s.rows() == 0 ? null : s.maxTimestamp());
    out.put("implicit", s.implicitColumn());
    out.put("data", SegmentRows.read(s));
    for (Map.Entry<String, Column> e : s.columns().entrySet()) {
      out.put(e.getKey(), column(e.getValue()));
    }
    TokenIndex t = s.tokenIndex();
    out.put("tokens", t == null ? null : postings(t.tokens(), t.postings()::get));
    return out;
  }

  private static Map<String, Object> column(Column c) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("type", c.type());
    out.put("present", c.presentCount());
    out.put("presence", rows(c.presence()));
    if (c instanceof LongColumn l) {
      out.put("min", l.min());
      out.put("max", l.max());
      if (l.index() != null) {
        List<Object> index = new ArrayList<>();
        for (int i = 0; i < l.index().values().capacity(); i++) {
          index.add(List.of(l.index().values().get(i), rows(l.index().postings().get(i))));
        }
        out.put("index", index);
      }
    } else if (c instanceof DoubleColumn d) {
      out.put("min", d.min());
      out.put("max", d.max());
    } else if (c instanceof StringColumn s) {
      out.put("dictionary", postings(s.dictionary(), s::rows));
    }
    return out;
  }

  private static Map<String, List<Integer>> postings(
      StringDictionary d, java.util.function.IntFunction<ImmutableRoaringBitmap> rowsOf) {
    Map<String, List<Integer>> out = new LinkedHashMap<>();
    for (int id = 0; id < d.size(); id++) {
      out.put(d.get(id), rows(rowsOf.apply(id)));
      if (d.indexOf(d.get(id)) != id) {
        throw new AssertionError("indexOf(" + d.get(id) + ") is not " + id);
      }
    }
    return out;
  }

  private static List<Integer> rows(ImmutableRoaringBitmap b) {
    if (b == null) {
      return null;
    }
    List<Integer> out = new ArrayList<>();
    b.forEach((int r) -> out.add(r));
    return out;
  }
}
