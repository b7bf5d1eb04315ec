package dev.chartwell.engine.internal.segment;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;

/**
 * The token index of consecutive row ranges put end to end, from the indexes of the ranges: the
 * union of their sorted tokens, each with its rows in every range, shifted by where that range
 * starts. Equal to the index {@link TokenIndexBuilder} builds over all the rows, at the cost of a
 * merge rather than tokenizing and sorting every value again: how a head's part that takes in older
 * parts (in time order already) indexes only the rows that are new.
 */
final class TokenIndexMerge {
  private TokenIndexMerge() {}

  /**
   * @param indexes the ranges' indexes, in row order ({@code null}: a range without tokens)
   * @param starts the first row of each range, ascending, each past the rows of the one before
   * @param rows the rows of all the ranges
   * @return the index of all the rows, or {@code null} when no range has a token
   */
  static TokenIndex concat(List<TokenIndex> indexes, int[] starts, int rows) {
    if (starts.length != indexes.size()) {
      throw new IllegalArgumentException(starts.length + " starts for " + indexes.size());
    }
    List<TokenIndex> in = new ArrayList<>();
    List<Integer> offsets = new ArrayList<>();
    for (int i = 0; i < starts.length; i++) {
      if (i > 0 && starts[i] < starts[i - 1]) {
        throw new IllegalArgumentException(
            "range starts not ascending: " + Arrays.toString(starts));
      }
      if (indexes.get(i) != null && indexes.get(i).tokens().size() > 0) {
        in.add(indexes.get(i));
        offsets.add(starts[i]);
      }
    }
    if (in.isEmpty()) {
      return null;
    }
    int k = in.size();
    // Each index's tokens are read in order (decoding a front-coded dictionary once) and compared
    // as strings: the dictionaries' order is String's.
    List<Iterator<String>> readers = new ArrayList<>(k);
    String[] current = new String[k]; // each index's next token, or null once read to the end
    int[] next = new int[k]; // its id
    for (int i = 0; i < k; i++) {
      readers.add(in.get(i).tokens().iterator());
      current[i] = readers.get(i).next();
    }
    List<String> tokens = new ArrayList<>();
    BitmapList.RowList tokenRows = new BitmapList.RowList(rows);
    int[] tokenStarts = new int[16];
    while (true) {
      String least = null;
      for (String t : current) {
        if (t != null && (least == null || t.compareTo(least) < 0)) {
          least = t;
        }
      }
      if (least == null) {
        break;
      }
      if (tokens.size() + 1 >= tokenStarts.length) {
        tokenStarts = Arrays.copyOf(tokenStarts, tokenStarts.length * 2);
      }
      tokenStarts[tokens.size()] = tokenRows.size();
      tokens.add(least);
      for (int i = 0; i < k; i++) {
        if (!least.equals(current[i])) {
          continue;
        }
        in.get(i).postings().addRows(next[i], offsets.get(i), tokenRows);
        next[i]++;
        current[i] = readers.get(i).hasNext() ? readers.get(i).next() : null;
      }
    }
    tokenStarts[tokens.size()] = tokenRows.size();
    if (tokenRows.max() >= rows) {
      throw new IllegalArgumentException("row " + tokenRows.max() + " beyond " + rows);
    }
    return new TokenIndex(
        StringDictionary.of(tokens),
        BitmapList.of(
            new GroupedRows(Arrays.copyOf(tokenStarts, tokens.size() + 1), tokenRows.array())));
  }
}
