package dev.chartwell.engine.internal.source;

import dev.chartwell.engine.internal.search.ColumnValues;
import dev.chartwell.engine.internal.segment.Segment;
import dev.chartwell.engine.internal.segment.SegmentBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Size-tiered merging of small sealed segments, so that a source sealed often (idle heads of a
 * source that trickles) keeps a bounded number of segments. A segment is small when {@link #FANOUT}
 * of them fit in one segment: at most a quarter of the segment rows and of the head bytes. Small
 * segments fall into tiers by rows (tier {@code t} holds 4<sup>t</sup> to 4<sup>t+1</sup>-1 rows);
 * {@link #FANOUT} segments of one tier are merged into one segment of a higher tier, so no tier
 * keeps more than {@code FANOUT - 1} of them and a source holds at most {@code (FANOUT - 1)} times
 * the number of tiers small segments, besides segments of more than a quarter segment each.
 */
final class SegmentMerger {
  /** How many segments of one tier are merged into one. */
  static final int FANOUT = 4;

  private SegmentMerger() {}

  /**
   * @param sealed the sealed segments
   * @param segmentRows rows per segment
   * @param maxHeadBytes bytes per head
   * @return {@link #FANOUT} small segments of the lowest tier that has as many, or none
   */
  static List<Segment> pick(List<Segment> sealed, int segmentRows, long maxHeadBytes) {
    Map<Integer, List<Segment>> tiers = new TreeMap<>();
    for (Segment s : sealed) {
      if ((long) s.rows() * FANOUT <= segmentRows && s.bytes() * FANOUT <= maxHeadBytes) {
        tiers.computeIfAbsent(tier(s.rows()), t -> new ArrayList<>()).add(s);
      }
    }
    for (List<Segment> t : tiers.values()) {
      if (t.size() >= FANOUT) {
        return List.copyOf(t.subList(0, FANOUT));
      }
    }
    return List.of();
  }

  /**
   * @param rows a segment's rows
   * @return its tier: the base-4 logarithm of its rows, rounded down
   */
  static int tier(int rows) {
    return (31 - Integer.numberOfLeadingZeros(Math.max(1, rows))) / 2;
  }

  /**
   * Builds one segment holding every row of the inputs (held by the caller), time-sorted; rows of
   * equal time keep the inputs' order.
   *
   * @param inputs the segments to merge
   * @param schema the source's columns (every input's columns are among them)
   * @param id the merged segment's id
   * @param implicitColumn the column to index tokens on, or {@code null}
   * @return the merged segment, in memory
   */
  static Segment merge(List<Segment> inputs, Schema schema, long id, String implicitColumn) {
    int rows = 0;
    for (Segment s : inputs) {
      rows += s.rows();
    }
    SegmentBuilder b = new SegmentBuilder(rows);
    List<String> names = new ArrayList<>();
    for (Schema.Column c : schema.columns()) {
      b.addColumn(c.name(), c.type());
      names.add(c.name());
    }
    Object[] values = new Object[names.size()];
    for (Segment s : inputs) {
      for (int row = 0; row < s.rows(); row++) {
        for (int c = 0; c < values.length; c++) {
          values[c] = ColumnValues.read(s, names.get(c), row);
        }
        b.append(s.timestamp(row), values);
      }
    }
    return b.build(id, implicitColumn);
  }
}
