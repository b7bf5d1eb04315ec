package dev.chartwell.engine.internal.segment;

import dev.chartwell.parser.Tokens;
import java.util.Arrays;

/**
 * Builds a {@link TokenIndex} from a sealed string column's sorted distinct values (as UTF-8) and
 * the rows of each, with no object per value, row or token occurrence.
 *
 * <ol>
 *   <li>Each distinct value is tokenized once, in sorted order. Sorted values of a templated text
 *       share long prefixes with the value before them, and every token that ends inside that
 *       shared prefix (before its last byte) is the same token again, so only the rest is read. A
 *       token is found in a {@link TokenTable} by its packed first eight bytes.
 *   <li>The distinct tokens are sorted ({@link Utf8Sort}) into the dictionary's order.
 *   <li>Each token's rows are found: a common token's (one in many rows: a template's words) by
 *       setting them in a bitset of the segment's rows, read back in order; the others' by writing
 *       each value's rows straight into the places of its tokens (counted first), then ordering
 *       each token's few rows where they lie.
 * </ol>
 */
final class TokenIndexBuilder {
  /**
   * A token in at least this share of the rows (1/64) is common: its rows are set in a bitset of
   * the segment's rows (one bit a row) and read back in order, not placed and sorted (a sort costs
   * a comparison or more per row and level; the bitset is at most 2 bits per row of the token).
   */
  static final int COMMON_SHARE = 64;

  private TokenIndexBuilder() {}

  /**
   * @param values the column's distinct values, sorted
   * @param rowsOfValue the rows of each value
   * @param rows the number of rows
   * @return the index of the tokens of the values
   */
  static TokenIndex build(Utf8Strings values, GroupedRows rowsOfValue, int rows) {
    ValueTokens found = tokenize(values);
    TokenTable tokens = found.tokens;
    int[] firstOfValue = found.firstOfValue;
    int[] ofValue = found.ofValue;

    // Number tokens in sorted order, so that their rows come out grouped by dictionary position.
    int[] order = new int[tokens.size()];
    for (int id = 0; id < order.length; id++) {
      order[id] = id;
    }
    int[] position = new int[order.length];
    Utf8Strings sorted =
        Utf8Sort.sortDistinct(tokens.text(), tokens.bounds(), order, order.length, position);
    for (int i = 0; i < found.used; i++) {
      ofValue[i] = position[ofValue[i]];
    }

    return new TokenIndex(
        StringDictionary.of(sorted),
        BitmapList.of(rowsOfTokens(rowsOfValue, firstOfValue, ofValue, sorted.size(), rows)));
  }

  /**
   * Each token's rows, grouped by token and ascending: how many first, then a common token's rows
   * set in a bitset of the rows and read back in order, and the others' placed value by value and
   * sorted token by token.
   *
   * @param rowsOfValue the rows of each value
   * @param firstOfValue where each value's tokens start in {@code ofValue}, and the end of the last
   * @param ofValue the values' tokens, by dictionary position
   * @param tokenCount the number of distinct tokens
   * @param rows the number of rows
   * @return the rows of each token
   */
  private static GroupedRows rowsOfTokens(
      GroupedRows rowsOfValue, int[] firstOfValue, int[] ofValue, int tokenCount, int rows) {
    int[] valueStarts = rowsOfValue.starts();
    int[] valueRows = rowsOfValue.rows();
    long[] occurrences = new long[tokenCount];
    for (int v = 0; v < valueStarts.length - 1; v++) {
      int valueCount = valueStarts[v + 1] - valueStarts[v];
      for (int i = firstOfValue[v]; i < firstOfValue[v + 1]; i++) {
        occurrences[ofValue[i]] += valueCount;
      }
    }
    int[] starts = new int[tokenCount + 1];
    long total = 0;
    long common = Math.max(2, rows / COMMON_SHARE);
    long[][] bitsets = new long[tokenCount][];
    for (int t = 0; t < tokenCount; t++) {
      total += occurrences[t];
      if (total > Integer.MAX_VALUE - 8) {
        throw new IllegalStateException("more than 2^31 token occurrences in one segment");
      }
      starts[t + 1] = (int) total;
      if (occurrences[t] >= common) {
        bitsets[t] = new long[(rows + 63) >>> 6];
      }
    }
    // A rare token's rows go straight to its place, value by value; each token's few rows are then
    // put in order where they lie.
    int[] tokenRows = new int[(int) total];
    int[] at = Arrays.copyOf(starts, tokenCount);
    for (int v = 0; v < valueStarts.length - 1; v++) {
      for (int i = firstOfValue[v]; i < firstOfValue[v + 1]; i++) {
        int token = ofValue[i];
        long[] bits = bitsets[token];
        if (bits != null) {
          for (int r = valueStarts[v]; r < valueStarts[v + 1]; r++) {
            int row = valueRows[r];
            bits[row >>> 6] |= 1L << row;
          }
        } else {
          int to = at[token];
          for (int r = valueStarts[v]; r < valueStarts[v + 1]; r++) {
            tokenRows[to++] = valueRows[r];
          }
          at[token] = to;
        }
      }
    }
    for (int t = 0; t < tokenCount; t++) {
      long[] bits = bitsets[t];
      if (bits == null) {
        sortRows(tokenRows, starts[t], starts[t + 1]);
        continue;
      }
      int to = starts[t];
      for (int w = 0; w < bits.length; w++) {
        for (long word = bits[w]; word != 0; word &= word - 1) {
          tokenRows[to++] = w << 6 | Long.numberOfTrailingZeros(word);
        }
      }
    }
    return new GroupedRows(starts, tokenRows);
  }

  /** Orders {@code rows[from, to)}, by insertion when they are few. */
  private static void sortRows(int[] rows, int from, int to) {
    if (to - from > 32) {
      Arrays.sort(rows, from, to);
      return;
    }
    for (int i = from + 1; i < to; i++) {
      int row = rows[i];
      int j = i - 1;
      while (j >= from && rows[j] > row) {
        rows[j + 1] = rows[j];
        j--;
      }
      rows[j + 1] = row;
    }
  }

  /**
   * Each value's distinct tokens (as token table ids): those of value {@code v} are {@code
   * ofValue[firstOfValue[v], firstOfValue[v + 1])}, {@code used} in all.
   */
  private record ValueTokens(TokenTable tokens, int[] firstOfValue, int[] ofValue, int used) {}

  private static ValueTokens tokenize(Utf8Strings values) {
    byte[] text = values.data();
    TokenTable tokens = new TokenTable();
    int[] firstOfValue = new int[values.size() + 1];
    int[] ofValue = new int[Math.max(16, values.size() * 4)];
    int[] ends =
        new int[16]; // per token of the value before: where it ends, from the value's start
    int used = 0;
    byte[] lower = new byte[64];
    for (int v = 0; v < values.size(); v++) {
      firstOfValue[v] = used;
      int from = values.start(v);
      int end = from + values.length(v);
      // Tokens of the value before that end before its shared prefix does are this value's too.
      int kept = 0;
      int resume = from;
      if (v > 0) {
        int shared = values.shared(v - 1, v);
        int before = firstOfValue[v] - firstOfValue[v - 1];
        while (kept < before && ends[kept] < shared) {
          kept++;
        }
        if (used + kept > ofValue.length) {
          ofValue = Arrays.copyOf(ofValue, Math.max(2 * ofValue.length, used + kept));
        }
        System.arraycopy(ofValue, firstOfValue[v - 1], ofValue, used, kept);
        used += kept;
        resume = kept == 0 ? from : from + ends[kept - 1];
      }
      int count = kept;
      int start = -1;
      for (int i = resume; i <= end; i++) {
        if (i < end && Tokens.isTokenChar((char) (text[i] & 0xFF))) {
          if (start < 0) {
            start = i;
          }
          continue;
        }
        if (start < 0) {
          continue;
        }
        int length = i - start;
        if (length > lower.length) {
          lower = new byte[Math.max(length, 2 * lower.length)];
        }
        for (int k = 0; k < length; k++) {
          byte b = text[start + k];
          lower[k] = b <= 'Z' && b >= 'A' ? (byte) (b + ('a' - 'A')) : b;
        }
        int id = tokens.id(lower, length);
        start = -1;
        if (!contains(ofValue, firstOfValue[v], used, id)) {
          if (used == ofValue.length) {
            ofValue = Arrays.copyOf(ofValue, 2 * used);
          }
          if (count == ends.length) {
            ends = Arrays.copyOf(ends, 2 * count);
          }
          ofValue[used++] = id;
          ends[count++] = i - from;
        }
      }
    }
    firstOfValue[values.size()] = used;
    return new ValueTokens(tokens, firstOfValue, ofValue, used);
  }

  private static boolean contains(int[] ids, int from, int to, int id) {
    for (int i = from; i < to; i++) {
      if (ids[i] == id) {
        return true;
      }
    }
    return false;
  }
}
