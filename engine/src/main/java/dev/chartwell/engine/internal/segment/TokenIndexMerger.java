package dev.chartwell.engine.internal.segment;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The {@link TokenIndex} of rows sealed as one segment, put together from the token indexes of
 * segments that hold those rows between them, without tokenizing a value again: the index {@link
 * TokenIndexBuilder} builds over the same rows, entry for entry.
 *
 * <ol>
 *   <li>The inputs' dictionaries are merged as sorted lists. Tokens are ASCII letters and digits,
 *       lower-cased, so their UTF-8 bytes compare as {@link String#compareTo} does.
 *   <li>Each input's rows go to the merged segment's rows by a map that keeps their order (an input
 *       is sorted as the merged segment is: {@link RowOrder#mergedRows}), so an input's rows of a
 *       token stay ascending once mapped. A token's rows are its inputs' mapped rows one input
 *       after the other, already ascending when the inputs hold consecutive times (the usual case),
 *       else sorted where they lie.
 * </ol>
 */
final class TokenIndexMerger {
  private TokenIndexMerger() {}

  /**
   * The token index of a head's rows, some of which are in segments built before.
   *
   * @param earlier segments of the first rows, one after the other, each built from them
   * @param rest the implicit column's values of the rows after them, in arrival order
   * @param restTimestamps the timestamps of those rows, in arrival order
   * @return the token index of every row
   */
  static TokenIndex merge(List<Segment> earlier, HeadStrings rest, long[] restTimestamps) {
    List<TokenIndex> indexes = new ArrayList<>(earlier.size() + 1);
    long[][] times = new long[earlier.size() + 1][];
    for (int i = 0; i < earlier.size(); i++) {
      Segment s = earlier.get(i);
      indexes.add(s.tokenIndex());
      times[i] = new long[s.rows()];
      s.timestamps().get(0, s.rows(), times[i]);
    }
    int n = restTimestamps.length;
    if (n == 0) {
      return merge(indexes, RowOrder.mergedRows(Arrays.copyOf(times, earlier.size())));
    }
    // The rows after them: their values' tokens, as their own segment would have them.
    int[] order = RowOrder.sortedOrNull(restTimestamps, n);
    HeadStrings.Built built = rest.build(order, n, true);
    indexes.add(built == null ? null : built.tokens().get());
    long[] sorted = new long[n];
    for (int i = 0; i < n; i++) {
      sorted[i] = restTimestamps[order == null ? i : order[i]];
    }
    times[earlier.size()] = sorted;
    return merge(indexes, RowOrder.mergedRows(times));
  }

  /**
   * @param inputs the token index of each input, {@code null} for one with no values in the column
   * @param rowMaps per input, per row of it, its row in the merged segment (ascending within an
   *     input; the inputs' rows together are the merged segment's rows, each once)
   * @return the token index of the merged segment (no tokens when no input has one)
   */
  static TokenIndex merge(List<TokenIndex> inputs, int[][] rowMaps) {
    int k = inputs.size();
    if (rowMaps.length != k) {
      throw new IllegalArgumentException(k + " token indexes and " + rowMaps.length + " row maps");
    }
    Utf8Strings[] tokens = new Utf8Strings[k];
    GroupedRows[] rows = new GroupedRows[k];
    for (int i = 0; i < k; i++) {
      TokenIndex index = inputs.get(i);
      tokens[i] =
          index == null
              ? new Utf8Strings(new byte[0], new int[1], 0)
              : DictionaryEntries.utf8(index.tokens());
      rows[i] =
          index == null ? new GroupedRows(new int[1], new int[0]) : index.postings().grouped();
    }
    int[][] toMerged = new int[k][];
    Utf8Strings merged = mergeTokens(tokens, toMerged);
    return new TokenIndex(
        StringDictionary.of(merged),
        BitmapList.of(mergeRows(rows, toMerged, rowMaps, merged.size())));
  }

  /**
   * Merges sorted distinct token lists. Tokens are compared by their first eight bytes as a number
   * first (a token has no zero byte, so two of at most eight bytes are equal when those are), and
   * byte by byte only when those are equal and one is longer.
   *
   * @param tokens each input's tokens, sorted and distinct
   * @param toMerged receives per input, per token of it, its position among the merged tokens
   * @return the merged tokens, sorted and distinct
   */
  private static Utf8Strings mergeTokens(Utf8Strings[] tokens, int[][] toMerged) {
    int k = tokens.length;
    int[] next = new int[k];
    long[] prefix = new long[k]; // of each input's next token
    int capacity = 0;
    int bytes = 0;
    for (int i = 0; i < k; i++) {
      toMerged[i] = new int[tokens[i].size()];
      capacity += tokens[i].size();
      bytes += tokens[i].totalBytes();
      prefix[i] = prefix(tokens[i], 0);
    }
    byte[] data = new byte[bytes];
    int[] bounds = new int[capacity + 1];
    int size = 0;
    while (true) {
      int best = -1;
      for (int i = 0; i < k; i++) {
        if (next[i] < tokens[i].size()
            && (best < 0 || compare(tokens, next, prefix, i, best) < 0)) {
          best = i;
        }
      }
      if (best < 0) {
        break;
      }
      // Every other input whose next token is this least one moves past it too.
      for (int i = 0; i < k; i++) {
        if (i != best
            && next[i] < tokens[i].size()
            && compare(tokens, next, prefix, i, best) == 0) {
          toMerged[i][next[i]] = size;
          prefix[i] = prefix(tokens[i], ++next[i]);
        }
      }
      Utf8Strings from = tokens[best];
      int token = next[best];
      int length = from.length(token);
      System.arraycopy(from.data(), from.start(token), data, bounds[size], length);
      bounds[size + 1] = bounds[size] + length;
      toMerged[best][token] = size;
      prefix[best] = prefix(from, ++next[best]);
      size++;
    }
    return new Utf8Strings(data, bounds, size);
  }

  /** Compares the next tokens of inputs {@code a} and {@code b}, in byte order (ASCII). */
  private static int compare(Utf8Strings[] tokens, int[] next, long[] prefix, int a, int b) {
    int c = Long.compareUnsigned(prefix[a], prefix[b]);
    if (c != 0) {
      return c;
    }
    Utf8Strings x = tokens[a];
    Utf8Strings y = tokens[b];
    int i = next[a];
    int j = next[b];
    if (x.length(i) <= 8 && y.length(j) <= 8) {
      return 0;
    }
    return Arrays.compareUnsigned(
        x.data(),
        x.start(i),
        x.start(i) + x.length(i),
        y.data(),
        y.start(j),
        y.start(j) + y.length(j));
  }

  /**
   * A token's first eight bytes, big-endian, zero after its end (0 past the last token): {@link
   * Utf8Table#pack}'s word, first byte highest, so that it orders as the bytes do.
   */
  private static long prefix(Utf8Strings tokens, int i) {
    if (i >= tokens.size()) {
      return 0;
    }
    int from = tokens.start(i);
    return Long.reverseBytes(Utf8Table.pack(tokens.data(), from, from + tokens.length(i)));
  }

  /**
   * Each merged token's rows in the merged segment, ascending.
   *
   * @param rows each input's rows of each of its tokens
   * @param toMerged per input, per token of it, its merged position
   * @param rowMaps per input, per row of it, its merged row
   * @param size the number of merged tokens
   * @return the rows of each merged token
   */
  private static GroupedRows mergeRows(
      GroupedRows[] rows, int[][] toMerged, int[][] rowMaps, int size) {
    int[] starts = new int[size + 1];
    for (int i = 0; i < rows.length; i++) {
      int[] inputStarts = rows[i].starts();
      for (int t = 0; t < toMerged[i].length; t++) {
        starts[toMerged[i][t] + 1] += inputStarts[t + 1] - inputStarts[t];
      }
    }
    for (int t = 0; t < size; t++) {
      starts[t + 1] += starts[t];
    }
    int[] out = new int[starts[size]];
    int[] at = Arrays.copyOf(starts, size);
    boolean[] unsorted = new boolean[size];
    for (int i = 0; i < rows.length; i++) {
      int[] inputStarts = rows[i].starts();
      int[] inputRows = rows[i].rows();
      int[] map = rowMaps[i];
      for (int t = 0; t < toMerged[i].length; t++) {
        int m = toMerged[i][t];
        int to = at[m];
        int first = inputStarts[t];
        if (to > starts[m] && first < inputStarts[t + 1] && out[to - 1] > map[inputRows[first]]) {
          unsorted[m] = true; // an earlier input holds later rows of this token
        }
        for (int r = first; r < inputStarts[t + 1]; r++) {
          out[to++] = map[inputRows[r]];
        }
        at[m] = to;
      }
    }
    for (int t = 0; t < size; t++) {
      if (unsorted[t]) {
        Arrays.sort(out, starts[t], starts[t + 1]);
      }
    }
    return new GroupedRows(starts, out);
  }
}
