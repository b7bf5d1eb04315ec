package dev.chartwell.engine.internal.segment;

import java.util.Arrays;

/**
 * Rows grouped by position, as a counting sort leaves them: the ascending rows of position {@code
 * i} are {@code rows[starts[i]]} up to {@code rows[starts[i + 1]]}, exclusive. How a segment builds
 * its posting lists without an object per distinct value ({@link BitmapList#of(GroupedRows)}).
 *
 * @param starts where the rows of each position start, and the end of the last
 * @param rows the rows of every position, back to back
 */
record GroupedRows(int[] starts, int[] rows) {
  /**
   * @param keys the position of each row (0 to {@code positions - 1}), or -1 for none
   * @param rowCount how many rows
   * @param positions how many positions
   * @return the rows of each position
   */
  static GroupedRows of(int[] keys, int rowCount, int positions) {
    int[] starts = new int[positions + 1];
    for (int r = 0; r < rowCount; r++) {
      if (keys[r] >= 0) {
        starts[keys[r] + 1]++;
      }
    }
    for (int k = 0; k < positions; k++) {
      starts[k + 1] += starts[k];
    }
    int[] next = Arrays.copyOf(starts, positions);
    int[] rows = new int[starts[positions]];
    for (int r = 0; r < rowCount; r++) {
      if (keys[r] >= 0) {
        rows[next[keys[r]]++] = r;
      }
    }
    return new GroupedRows(starts, rows);
  }
}
