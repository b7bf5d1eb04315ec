package dev.chartwell.engine.segment;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.roaringbitmap.buffer.MutableRoaringBitmap;

/**
 * A head's string column. While the column repeats its values (service names, hosts, levels) each
 * row holds the number of a distinct value, found in a hash map. Once the column has proved nearly
 * unique (log bodies, trace ids: at least {@link #DEDUPLICATED_LIMIT} distinct values, more than
 * one row in two), the map would cost a hash and a probe per row for almost nothing, so each row
 * keeps its own string from then on and sealing finds the duplicates by sorting.
 */
final class HeadStrings extends SegmentBuilder.Buffer {
  /** Distinct values a column may reach before it is checked for being nearly unique. */
  static final int DEDUPLICATED_LIMIT = 4096;

  /**
   * What one distinct string costs beyond its characters while deduplicated: the String and its
   * array (about 40 bytes), its slot in the list and its entry in the map (about 56), counting
   * characters as two bytes (the worst case of compact strings).
   */
  private static final long DISTINCT_BYTES = 96;

  /** What a row's own string costs beyond its characters: the String, its array and its slot. */
  private static final long ROW_BYTES = 44;

  /** Deduplicating: per row the index into {@link #distinct} + 1, or 0 for absent. */
  private int[] ordinals;

  private Map<String, Integer> index;
  private List<String> distinct;

  /** Once nearly unique: per row its string, or {@code null} for absent. */
  private String[] values;

  /** Heap of the strings and their bookkeeping, kept as they are added. */
  private long stringBytes;

  HeadStrings(int capacity) {
    ordinals = new int[capacity];
    index = new HashMap<>();
    distinct = new ArrayList<>();
  }

  private HeadStrings() {}

  @Override
  void grow(int capacity) {
    if (values != null) {
      values = Arrays.copyOf(values, capacity);
    } else {
      ordinals = Arrays.copyOf(ordinals, capacity);
    }
  }

  @Override
  void set(int row, Object value) {
    String s = (String) value;
    if (values != null) {
      values[row] = s;
      stringBytes += ROW_BYTES + 2L * s.length();
      return;
    }
    Integer id = index.get(s);
    if (id == null) {
      if (distinct.size() >= DEDUPLICATED_LIMIT && distinct.size() > row / 2) {
        keepPerRow(row);
        set(row, value);
        return;
      }
      id = distinct.size();
      index.put(s, id);
      distinct.add(s);
      stringBytes += DISTINCT_BYTES + 2L * s.length();
    }
    ordinals[row] = id + 1;
  }

  /** Gives each of the first {@code rows} rows its own string and drops the map. */
  private void keepPerRow(int rows) {
    values = new String[ordinals.length];
    stringBytes = 0;
    for (int r = 0; r < rows; r++) {
      if (ordinals[r] != 0) {
        values[r] = distinct.get(ordinals[r] - 1);
        stringBytes += ROW_BYTES + 2L * values[r].length();
      }
    }
    ordinals = null;
    index = null;
    distinct = null;
  }

  @Override
  SegmentBuilder.Buffer copy(int rows) {
    HeadStrings c = new HeadStrings();
    if (values != null) {
      c.values = Arrays.copyOf(values, rows);
    } else {
      c.ordinals = Arrays.copyOf(ordinals, rows);
      c.distinct = new ArrayList<>(distinct); // a copy is only sealed, never appended to
    }
    c.stringBytes = stringBytes;
    return c;
  }

  @Override
  long bytes() {
    return 64 + 4L * (values != null ? values.length : ordinals.length) + stringBytes;
  }

  @Override
  Column build(int[] order, int rows) {
    int[] ids = new int[rows]; // per sorted row: its dictionary id, or -1
    List<String> sorted =
        values != null ? sortRows(order, rows, ids) : sortDistinct(order, rows, ids);
    if (sorted == null) {
      return null;
    }
    long[] packed = new long[rows];
    int present = 0;
    for (int i = 0; i < rows; i++) {
      if (ids[i] >= 0) {
        packed[i] = ids[i] + 1;
        present++;
      }
    }
    MutableRoaringBitmap presence = null;
    if (present < rows) {
      int[] presentRows = new int[present];
      int p = 0;
      for (int i = 0; i < rows; i++) {
        if (ids[i] >= 0) {
          presentRows[p++] = i;
        }
      }
      presence = new MutableRoaringBitmap();
      presence.addN(presentRows, 0, present);
      presence.runOptimize();
    }
    return new StringColumn(
        StringDictionary.of(sorted),
        PackedLongs.pack(packed, rows),
        BitmapList.of(GroupedRows.of(ids, rows, sorted.size())),
        presence,
        present);
  }

  /** Deduplicated: sorts the distinct values in use and numbers the rows by them. */
  private List<String> sortDistinct(int[] order, int rows, int[] ids) {
    boolean[] used = new boolean[distinct.size()];
    boolean any = false;
    for (int i = 0; i < rows; i++) {
      int o = ordinals[source(order, i)];
      if (o != 0) {
        used[o - 1] = true;
        any = true;
      }
    }
    if (!any) {
      return null;
    }
    String[] inUse = new String[distinct.size()];
    int[] inUseId = new int[distinct.size()];
    int n = 0;
    for (int d = 0; d < used.length; d++) {
      if (used[d]) {
        inUse[n] = distinct.get(d);
        inUseId[n++] = d;
      }
    }
    int[] byValue = StringSort.order(inUse, n);
    List<String> sorted = new ArrayList<>(n);
    int[] remap = new int[distinct.size()];
    for (int position : byValue) {
      remap[inUseId[position]] = sorted.size();
      sorted.add(inUse[position]);
    }
    for (int i = 0; i < rows; i++) {
      int o = ordinals[source(order, i)];
      ids[i] = o == 0 ? -1 : remap[o - 1];
    }
    return sorted;
  }

  /** Per row: sorts the rows' strings, numbering each run of equal ones as one value. */
  private List<String> sortRows(int[] order, int rows, int[] ids) {
    String[] inOrder = new String[rows];
    int[] rowOf = new int[rows];
    int n = 0;
    for (int i = 0; i < rows; i++) {
      String v = values[source(order, i)];
      ids[i] = -1;
      if (v != null) {
        inOrder[n] = v;
        rowOf[n++] = i;
      }
    }
    if (n == 0) {
      return null;
    }
    int[] byValue = StringSort.order(inOrder, n);
    List<String> sorted = new ArrayList<>();
    String last = null;
    for (int position : byValue) {
      String v = inOrder[position];
      if (last == null || !last.equals(v)) {
        sorted.add(v);
        last = v;
      }
      ids[rowOf[position]] = sorted.size() - 1;
    }
    return sorted;
  }
}
