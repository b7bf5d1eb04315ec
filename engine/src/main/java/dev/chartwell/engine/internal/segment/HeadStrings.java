package dev.chartwell.engine.internal.segment;

import dev.chartwell.engine.EventBatch;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.roaringbitmap.buffer.MutableRoaringBitmap;

/**
 * A head's string column, kept as UTF-8 bytes: no {@code String} per value. While the column
 * repeats its values (service names, hosts, levels) each row holds the number of a distinct value,
 * found in a {@link Utf8Table}. Once the column has proved nearly unique (log bodies, trace ids: at
 * least {@link #DEDUPLICATED_LIMIT} distinct values, more than one row in two), the table would
 * cost a hash and a probe per row for almost nothing, so from then on each row's bytes are appended
 * to one array and sealing finds the duplicates by sorting ({@link Utf8Sort}).
 *
 * <p>Rows are only ever added: a {@link #copy} for a reader shares the arrays (or copies the range
 * it is given), whose parts below the copy's rows the head never changes again.
 */
final class HeadStrings extends HeadColumn {
  /** Distinct values a column may reach before it is checked for being nearly unique. */
  static final int DEDUPLICATED_LIMIT = 4096;

  /** Deduplicating: per row the distinct value's id + 1, or 0 for absent. */
  private int[] ordinals;

  /** Deduplicating and still appended to: the distinct values. */
  private Utf8Table distinct;

  /** Deduplicating: the distinct values as a copy saw them (or as {@link #distinct} holds them). */
  private byte[] distinctText;

  private int[] distinctBounds;
  private int distinctSize;

  /** Once nearly unique: every row's bytes, back to back. */
  private byte[] text;

  private int textEnd;

  /** Once nearly unique: row {@code r}'s bytes are {@code text[bounds[r], bounds[r + 1])}. */
  private int[] bounds;

  /** Once nearly unique: rows whose bounds are set. */
  private int filled;

  HeadStrings(int capacity) {
    ordinals = new int[capacity];
    distinct = new Utf8Table();
  }

  private HeadStrings() {}

  @Override
  void grow(int capacity) {
    if (text != null) {
      bounds = Arrays.copyOf(bounds, capacity + 1);
      growPresence(capacity);
    } else {
      ordinals = Arrays.copyOf(ordinals, capacity);
    }
  }

  @Override
  void set(int row, Object value) {
    byte[] utf8 = ((String) value).getBytes(StandardCharsets.UTF_8);
    setUtf8(row, utf8, 0, utf8.length);
  }

  @Override
  void set(EventBatch batch, int field, int row, int r) {
    int start = batch.textStart(field, row);
    setUtf8(r, batch.text(field), start, start + batch.textLength(field, row));
  }

  /**
   * Sets a row's value from UTF-8 bytes.
   *
   * @param row a row at or after every row set before
   * @param value holds the bytes
   * @param from where they start
   * @param to where they end
   */
  void setUtf8(int row, byte[] value, int from, int to) {
    if (text != null) {
      fill(row);
      int length = to - from;
      if (textEnd + length > text.length) {
        text = Arrays.copyOf(text, Math.max(text.length + (text.length >> 1), textEnd + length));
      }
      System.arraycopy(value, from, text, textEnd, length);
      textEnd += length;
      bounds[row + 1] = textEnd;
      filled = row + 1;
      markPresent(row);
      return;
    }
    int before = distinct.size();
    int id = distinct.id(value, from, to);
    if (id == before && before >= DEDUPLICATED_LIMIT && before > row / 2) {
      keepPerRow(row);
      setUtf8(row, value, from, to);
      return;
    }
    ordinals[row] = id + 1;
  }

  /** Rows before {@code row} that got no value get empty bounds. */
  private void fill(int row) {
    for (int r = filled; r < row; r++) {
      bounds[r + 1] = textEnd;
    }
    filled = Math.max(filled, row);
  }

  /** Gives each of the first {@code rows} rows its own bytes and drops the table. */
  private void keepPerRow(int rows) {
    byte[] values = distinct.text();
    int[] at = distinct.bounds();
    bounds = new int[ordinals.length + 1];
    growPresence(ordinals.length);
    long total = 0;
    for (int r = 0; r < rows; r++) {
      int o = ordinals[r];
      if (o != 0) {
        total += at[o] - at[o - 1];
      }
    }
    text = new byte[(int) Math.min(Integer.MAX_VALUE - 8, Math.max(1024, 2 * total))];
    for (int r = 0; r < rows; r++) {
      int o = ordinals[r];
      if (o != 0) {
        int length = at[o] - at[o - 1];
        System.arraycopy(values, at[o - 1], text, textEnd, length);
        textEnd += length;
        markPresent(r);
      }
      bounds[r + 1] = textEnd;
    }
    filled = rows;
    ordinals = null;
    distinct = null;
  }

  @Override
  HeadColumn copy(int from, int to) {
    HeadStrings c = new HeadStrings();
    if (text != null) {
      fill(to);
      c.text = text;
      c.textEnd = textEnd;
      c.bounds = from == 0 ? bounds : Arrays.copyOfRange(bounds, from, to + 1);
      c.filled = to - from;
      c.present = bitRange(present, from, to);
    } else {
      c.ordinals = from == 0 ? ordinals : Arrays.copyOfRange(ordinals, from, to);
      if (distinct != null) {
        c.distinctText = distinct.text();
        c.distinctBounds = distinct.bounds();
        c.distinctSize = distinct.size();
      } else { // a copy, copied again
        c.distinctText = distinctText;
        c.distinctBounds = distinctBounds;
        c.distinctSize = distinctSize;
      }
    }
    return c;
  }

  @Override
  long bytes() {
    if (text != null) {
      return 64L + text.length + 4L * bounds.length + 8L * present.length;
    }
    return 64L + 4L * ordinals.length + (distinct != null ? distinct.bytes() : 0);
  }

  @Override
  Column build(int[] order, int rows) {
    Built b = build(order, rows, false);
    return b == null ? null : b.column();
  }

  /**
   * A sealed string column and, when asked for, the way to the token index of its values.
   *
   * @param column the column
   * @param tokens builds its token index, or {@code null}
   */
  record Built(StringColumn column, java.util.function.Supplier<TokenIndex> tokens) {}

  /**
   * @param order the rows in time order ({@code null}: as appended)
   * @param rows how many rows
   * @param tokens whether to build the token index too
   * @return the column (and index), or {@code null} when no row has a value
   */
  Built build(int[] order, int rows, boolean tokens) {
    int[] ids = new int[rows]; // per sorted row: its dictionary id, or -1
    Sorted sorted =
        text != null ? sortRows(order, rows, tokens, ids) : sortDistinct(order, rows, ids);
    if (sorted == null) {
      return null;
    }
    StringDictionary dictionary = sorted.dictionary();
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
      presence = BitmapList.ofAscending(presentRows, 0, present);
      presence.runOptimize();
    }
    GroupedRows rowsOfValue = GroupedRows.of(ids, rows, dictionary.size());
    StringColumn column =
        new StringColumn(
            dictionary,
            PackedLongs.pack(packed, rows),
            StringColumn.keepsPostings(dictionary.size(), present)
                ? BitmapList.of(rowsOfValue)
                : null,
            presence,
            present);
    Utf8Strings values = sorted.values();
    return new Built(
        column, tokens ? () -> TokenIndexBuilder.build(values, rowsOfValue, rows) : null);
  }

  /**
   * A column's distinct values in order.
   *
   * @param dictionary as the segment keeps them
   * @param values as text, or {@code null} where they were sorted packed ({@link HexSort})
   */
  private record Sorted(StringDictionary dictionary, Utf8Strings values) {
    static Sorted of(Utf8Strings values) {
      return new Sorted(StringDictionary.of(values), values);
    }
  }

  /** Deduplicated: sorts the distinct values in use and numbers the rows by them. */
  private Sorted sortDistinct(int[] order, int rows, int[] ids) {
    if (distinct != null) {
      distinctText = distinct.text();
      distinctBounds = distinct.bounds();
      distinctSize = distinct.size();
    }
    boolean[] used = new boolean[distinctSize];
    int n = 0;
    for (int i = 0; i < rows; i++) {
      int o = ordinals[source(order, i)];
      if (o != 0 && !used[o - 1]) {
        used[o - 1] = true;
        n++;
      }
    }
    if (n == 0) {
      return null;
    }
    int[] items = new int[n];
    for (int d = 0, k = 0; d < used.length; d++) {
      if (used[d]) {
        items[k++] = d;
      }
    }
    int[] remap = new int[distinctSize];
    Utf8Strings sorted = Utf8Sort.sortDistinct(distinctText, distinctBounds, items, n, remap);
    for (int i = 0; i < rows; i++) {
      int o = ordinals[source(order, i)];
      ids[i] = o == 0 ? -1 : remap[o - 1];
    }
    return Sorted.of(sorted);
  }

  /**
   * Per row: sorts the rows' values, numbering each run of equal ones as one value. Hex ids are
   * sorted packed ({@link HexSort}) unless the values are to be tokenized, which takes them as
   * text.
   */
  private Sorted sortRows(int[] order, int rows, boolean tokens, int[] ids) {
    int[] items = presentRows(order, rows);
    if (items.length == 0) {
      return null;
    }
    int[] idOfRow = new int[rows];
    StringDictionary hex =
        tokens ? null : HexSort.sortDistinct(text, bounds, items, items.length, idOfRow);
    Sorted sorted =
        hex != null
            ? new Sorted(hex, null)
            : Sorted.of(Utf8Sort.sortDistinct(text, bounds, items, items.length, idOfRow));
    for (int i = 0; i < rows; i++) {
      int src = source(order, i);
      ids[i] = bit(present, src) ? idOfRow[src] : -1;
    }
    return sorted;
  }

  /** The rows that have a value, in time order. */
  private int[] presentRows(int[] order, int rows) {
    fill(rows);
    int[] items = new int[rows];
    int n = 0;
    for (int i = 0; i < rows; i++) {
      int src = source(order, i);
      if (bit(present, src)) {
        items[n++] = src;
      }
    }
    return n == rows ? items : Arrays.copyOf(items, n);
  }
}
