package dev.chartwell.engine.internal.agg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import dev.chartwell.engine.internal.segment.PackedLongs;
import dev.chartwell.engine.internal.segment.StringColumn;
import dev.chartwell.engine.internal.segment.StringDictionary;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Block summaries answer what the rows answer, for every row range: ranges inside one block, across
 * many, starting and ending on and off block boundaries, and reaching into the partial block at a
 * segment's end.
 */
class BlockSummaryProperties {

  @Test
  void doubleBlocksAnswerWhatTheRowsAnswer() {
    qt().withExamples(300)
        .forAll(longs().all(), integers().between(1, 6 * DoubleBlocks.ROWS + 100))
        .checkAssert(
            (seed, rows) -> {
              Random random = new Random(seed);
              double[] values = new double[rows];
              for (int i = 0; i < rows; i++) {
                values[i] =
                    random.nextBoolean() ? random.nextInt(100) : random.nextGaussian() * 1e6;
              }
              DoubleBuffer buffer =
                  random.nextBoolean()
                      ? DoubleBuffer.wrap(values)
                      : ByteBuffer.allocateDirect(8 * rows)
                          .order(ByteOrder.LITTLE_ENDIAN)
                          .asDoubleBuffer()
                          .put(values)
                          .clear();
              DoubleBlocks blocks = DoubleBlocks.of(buffer, rows);
              for (int[] range : ranges(random, rows, DoubleBlocks.ROWS)) {
                int from = range[0];
                int to = range[1];
                double sum = 0;
                double magnitude = 0;
                double min = values[from];
                double max = values[from];
                for (int r = from; r < to; r++) {
                  sum += values[r];
                  magnitude += Math.abs(values[r]);
                  min = Math.min(min, values[r]);
                  max = Math.max(max, values[r]);
                }
                String where = "rows " + from + ".." + to + " of " + rows;
                assertEquals(sum, blocks.sum(from, to), magnitude * 1e-13, where);
                assertEquals(min, blocks.extreme(from, to, false), where);
                assertEquals(max, blocks.extreme(from, to, true), where);
              }
            });
  }

  @Test
  void idBlocksSetTheIdsOfTheRows() {
    qt().withExamples(200)
        .forAll(
            longs().all(),
            integers().between(1, 5 * IdBlocks.ROWS + 100),
            integers().between(1, 300))
        .checkAssert(
            (seed, rows, distinct) -> {
              Random random = new Random(seed);
              List<String> dictionary = new ArrayList<>();
              for (int i = 0; i < distinct; i++) {
                dictionary.add(String.format("v%05d", i));
              }
              // Uniform, or in runs that change with the row (so that blocks hold different ids),
              // or runs with a few stray values; absent rows (ordinal 0) throughout.
              int mode = random.nextInt(3);
              int run = 1 + random.nextInt(3000);
              long[] ordinals = new long[rows];
              for (int i = 0; i < rows; i++) {
                int uniform = random.nextInt(distinct + 1);
                int clustered = 1 + (i / run) % distinct;
                ordinals[i] =
                    switch (mode) {
                      case 0 -> uniform;
                      case 1 -> random.nextInt(10) == 0 ? 0 : clustered;
                      default -> random.nextInt(500) == 0 ? uniform : clustered;
                    };
              }
              StringColumn column =
                  new StringColumn(
                      StringDictionary.of(dictionary),
                      PackedLongs.pack(ordinals, rows),
                      null,
                      null,
                      rows);
              IdBlocks blocks = IdBlocks.of(column, rows);
              for (int[] range : ranges(random, rows, IdBlocks.ROWS)) {
                long[] expected = new long[(distinct + 63) >>> 6];
                for (int r = range[0]; r < range[1]; r++) {
                  int id = (int) ordinals[r] - 1;
                  if (id >= 0) {
                    expected[id >>> 6] |= 1L << id;
                  }
                }
                long[] actual = new long[expected.length];
                blocks.addIds(actual, range[0], range[1]);
                assertArrayEquals(expected, actual, "rows " + range[0] + ".." + range[1]);
              }
            });
  }

  /** Non-empty ranges: random ones, and ones that start or end on a block boundary. */
  private static List<int[]> ranges(Random random, int rows, int block) {
    List<int[]> out = new ArrayList<>();
    out.add(new int[] {0, rows});
    for (int i = 0; i < 20; i++) {
      int from = random.nextInt(rows);
      int to = from + 1 + random.nextInt(rows - from);
      out.add(new int[] {from, to});
      int boundary = Math.min(rows - 1, block * random.nextInt(rows / block + 1));
      out.add(new int[] {boundary, boundary + 1 + random.nextInt(rows - boundary)});
      int end = Math.max(boundary, 1);
      out.add(new int[] {random.nextInt(end), end});
    }
    return out;
  }
}
