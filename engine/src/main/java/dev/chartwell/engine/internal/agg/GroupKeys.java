package dev.chartwell.engine.internal.agg;

import dev.chartwell.engine.internal.segment.BoolColumn;
import dev.chartwell.engine.internal.segment.Column;
import dev.chartwell.engine.internal.segment.DoubleColumn;
import dev.chartwell.engine.internal.segment.LongColumn;
import dev.chartwell.engine.internal.segment.PackedLongs;
import dev.chartwell.engine.internal.segment.Segment;
import dev.chartwell.engine.internal.segment.StringColumn;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The group of each row of a segment as a small integer; the group's values as strings are made
 * only once per group. With one string group-by field, the group is the dictionary id (no hashing);
 * otherwise value tuples are hashed. A missing value groups as {@code ""}: with one string field it
 * takes the id of an empty string when the dictionary has one, so that a segment never has two
 * groups of the same values.
 */
public final class GroupKeys {
  private final List<Column> columns;
  private final StringColumn single;
  private final Map<List<String>, Integer> ids = new HashMap<>();
  private final List<List<String>> keys = new ArrayList<>();

  /**
   * For one string field of at most {@link #CACHED} values: each dictionary id's group, made when
   * first asked for (a front-coded dictionary decodes its block for every look-up).
   */
  private List<String>[] singles;

  private static final int CACHED = 65_536;

  /**
   * With one string field, the group of a missing value: 0, or 1 (the id of {@code ""} plus one)
   * when the dictionary holds an empty string, which sorts first.
   */
  private final int missing;

  private GroupKeys(List<Column> columns) {
    this.columns = columns;
    this.single = columns.size() == 1 && columns.get(0) instanceof StringColumn s ? s : null;
    // A lookup, not get(0): a front-coded page would be decompressed and a String made, per
    // segment and query, to learn that one entry is empty.
    this.missing = single != null && single.dictionary().indexOf("") == 0 ? 1 : 0;
  }

  /**
   * @param segment the segment
   * @param groupBy the group-by fields
   * @return the group keys of that segment
   */
  public static GroupKeys of(Segment segment, List<String> groupBy) {
    List<Column> columns = new ArrayList<>();
    for (String f : groupBy) {
      columns.add(segment.column(f));
    }
    return new GroupKeys(columns);
  }

  /**
   * An upper bound of the distinct groups that rows of these segments fall into, known without
   * reading a row where every group-by field is a string column: a field has at most the values of
   * its segments' dictionaries and the missing value, and a group is one value of each field.
   *
   * @param segments the segments
   * @param groupBy the group-by fields
   * @return the bound, or {@link Long#MAX_VALUE} when a field is not a string column in some
   *     segment
   */
  public static long atMost(List<Segment> segments, List<String> groupBy) {
    long groups = 1;
    for (String field : groupBy) {
      long values = 1; // the missing value
      for (Segment segment : segments) {
        Column c = segment.column(field);
        if (c == null) {
          continue;
        }
        if (!(c instanceof StringColumn s)) {
          return Long.MAX_VALUE;
        }
        values += s.dictionary().size();
      }
      groups = values > Long.MAX_VALUE / groups ? Long.MAX_VALUE : groups * values;
    }
    return groups;
  }

  /**
   * @return an upper bound of the group ids {@link #group} returns, when known cheaply (else -1);
   *     when known (one string field, or none) the ids also ascend as the groups' values do
   */
  public int denseBound() {
    if (columns.isEmpty()) {
      return 1;
    }
    return single != null ? single.dictionary().size() + 1 : -1;
  }

  /**
   * @return how many groups {@link #group} has met so far when groups are value tuples (for one
   *     string field or none, the ids are dictionary ids and this is 0)
   */
  public int size() {
    return keys.size();
  }

  /**
   * @param row a row
   * @return its group id
   */
  public int group(int row) {
    if (columns.isEmpty()) {
      return 0;
    }
    if (single != null) {
      return Math.max(single.id(row) + 1, missing);
    }
    List<String> key = new ArrayList<>(columns.size());
    for (Column c : columns) {
      key.add(text(c, row));
    }
    Integer id = ids.get(key);
    if (id == null) {
      id = keys.size();
      ids.put(key, id);
      keys.add(List.copyOf(key));
    }
    return id;
  }

  /**
   * The groups of a batch of rows.
   *
   * @param rows row numbers
   * @param n how many
   * @param out receives each row's group id
   */
  public void groups(int[] rows, int n, int[] out) {
    if (columns.isEmpty()) {
      java.util.Arrays.fill(out, 0, n, 0);
    } else if (single != null) {
      PackedLongs ordinals = single.ordinals();
      for (int i = 0; i < n; i++) {
        out[i] = (int) ordinals.get(rows[i]); // id + 1, 0 when missing
      }
      if (missing != 0) {
        for (int i = 0; i < n; i++) {
          out[i] = Math.max(out[i], missing);
        }
      }
    } else {
      for (int i = 0; i < n; i++) {
        out[i] = group(rows[i]);
      }
    }
  }

  /**
   * @param group a group id returned by {@link #group}
   * @return the group's values, {@code ""} for a missing value
   */
  public List<String> values(int group) {
    if (columns.isEmpty()) {
      return List.of();
    }
    if (single == null) {
      return keys.get(group);
    }
    int size = single.dictionary().size();
    if (size >= CACHED) {
      return List.of(group == 0 ? "" : single.dictionary().get(group - 1));
    }
    if (singles == null) {
      @SuppressWarnings("unchecked")
      List<String>[] made = new List[size + 1];
      singles = made;
    }
    if (singles[group] == null) {
      singles[group] = List.of(group == 0 ? "" : single.dictionary().get(group - 1));
    }
    return singles[group];
  }

  /**
   * The text of a value in a group key: strings as they are, whole doubles without {@code .0}.
   *
   * @param c a column or {@code null}
   * @param row a row
   * @return the text, {@code ""} when absent
   */
  public static String text(Column c, int row) {
    if (c == null || !c.isPresent(row)) {
      return "";
    }
    if (c instanceof StringColumn s) {
      return s.get(row);
    }
    if (c instanceof LongColumn l) {
      return Long.toString(l.get(row));
    }
    if (c instanceof DoubleColumn d) {
      String t = Double.toString(d.get(row));
      return t.endsWith(".0") ? t.substring(0, t.length() - 2) : t;
    }
    return Boolean.toString(((BoolColumn) c).get(row));
  }
}
