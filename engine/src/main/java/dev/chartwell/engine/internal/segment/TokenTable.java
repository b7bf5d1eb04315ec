package dev.chartwell.engine.internal.segment;

import java.util.Arrays;

/**
 * The distinct tokens of a column while its token index is built ({@link Utf8Table}), with the
 * tokens found last in front: a text's common words come back all the time, and finding them here
 * reads one small array instead of the table's slots and entries. A number of up to six digits
 * written without leading zeros (ids, counts, durations: most of a log's distinct tokens) is found
 * by its value in an array, with no hash and no probe through a table too large for the caches.
 */
final class TokenTable {
  private static final int RECENT = 1024;

  /** Numbers of at most this many digits are found by value. */
  private static final int NUMBER_DIGITS = 6;

  private final Utf8Table table = new Utf8Table(1 << 14);
  private final long[] recentHeads = new long[RECENT];
  private final int[] recentIds = new int[RECENT]; // id + 1, or 0
  private int[] numberIds = new int[1024]; // a number's id + 1, or 0; grown to the largest met

  /**
   * @return the number of distinct tokens met
   */
  int size() {
    return table.size();
  }

  /**
   * @return the tokens' bytes, token {@code id} at {@code [bounds()[id], bounds()[id + 1])}
   */
  byte[] text() {
    return table.text();
  }

  /**
   * @return where each token starts, and the end of the last
   */
  int[] bounds() {
    return table.bounds();
  }

  /**
   * @param token the token's bytes, already lower-cased, from index 0
   * @param length its length
   * @return its id, a new one when it was not met before
   */
  int id(byte[] token, int length) {
    if (length <= NUMBER_DIGITS && (token[0] != '0' || length == 1)) {
      int value = 0;
      int i = 0;
      for (; i < length; i++) {
        int digit = token[i] - '0';
        if (digit < 0 || digit > 9) {
          break;
        }
        value = value * 10 + digit;
      }
      if (i == length) {
        return number(token, length, value);
      }
    }
    long head = Utf8Table.pack(token, 0, length);
    int recent = (int) (head ^ (head >>> 29) ^ length) & (RECENT - 1);
    int id = recentIds[recent] - 1;
    if (id >= 0 && recentHeads[recent] == head && table.is(id, token, 0, length, head)) {
      return id;
    }
    id = table.id(token, 0, length, head);
    recentHeads[recent] = head;
    recentIds[recent] = id + 1;
    return id;
  }

  /** The id of a number token, by its value (below 10^{@value #NUMBER_DIGITS}). */
  private int number(byte[] token, int length, int value) {
    if (value >= numberIds.length) {
      numberIds = Arrays.copyOf(numberIds, Math.max(value + 1, 2 * numberIds.length));
    }
    int id = numberIds[value] - 1;
    if (id < 0) {
      id = table.append(token, 0, length);
      numberIds[value] = id + 1;
    }
    return id;
  }
}
