package dev.chartwell.engine.segment;

/**
 * The distinct tokens of a column while its token index is built ({@link Utf8Table}), with the
 * tokens found last in front: a text's common words come back all the time, and finding them here
 * reads one small array instead of the table's slots and entries.
 */
final class TokenTable {
  private static final int RECENT = 1024;

  private final Utf8Table table = new Utf8Table(1 << 14);
  private final long[] recentHeads = new long[RECENT];
  private final int[] recentIds = new int[RECENT]; // id + 1, or 0

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
}
