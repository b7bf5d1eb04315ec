package dev.chartwell.engine.internal.agg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.doubles;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The chunked, four-accumulator loops answer what a loop over the rows one by one answers: the same
 * extremes, and sums equal up to rounding; over arrays, array slices and mapped-style direct
 * buffers of either byte order, ranges shorter and longer than a chunk.
 */
class DenseDoublesProperties {

  @Test
  void rangesAnswerWhatARowByRowLoopAnswers() {
    qt().withExamples(400)
        .forAll(
            lists().of(doubles().between(-1e9, 1e9)).ofSizeBetween(1, 5000),
            integers().between(0, 3),
            integers().between(0, 1000),
            integers().between(0, 1000))
        .checkAssert(
            (values, kind, fromPerMille, lengthPerMille) -> {
              DoubleBuffer buffer = buffer(values, kind);
              int from = (values.size() - 1) * fromPerMille / 1000;
              int to = from + 1 + (values.size() - from - 1) * lengthPerMille / 1000;
              double sum = 0;
              double max = buffer.get(from);
              double min = max;
              for (int row = from; row < to; row++) {
                double v = buffer.get(row);
                sum += v;
                max = Math.max(max, v);
                min = Math.min(min, v);
              }
              double magnitude = 0;
              for (int row = from; row < to; row++) {
                magnitude += Math.abs(buffer.get(row));
              }
              assertEquals(sum, DenseDoubles.sum(buffer, from, to), magnitude * 1e-13 + 1e-300);
              assertEquals(max, DenseDoubles.extreme(buffer, from, to, true));
              assertEquals(min, DenseDoubles.extreme(buffer, from, to, false));
            });
  }

  /** An array, a slice of one (non-zero offset), or a direct buffer big- or little-endian. */
  private static DoubleBuffer buffer(List<Double> values, int kind) {
    double[] a = values.stream().mapToDouble(Double::doubleValue).toArray();
    return switch (kind) {
      case 0 -> DoubleBuffer.wrap(a);
      case 1 -> {
        double[] padded = new double[a.length + 3];
        System.arraycopy(a, 0, padded, 3, a.length);
        yield DoubleBuffer.wrap(padded).position(3).slice();
      }
      default -> {
        ByteOrder order = kind == 2 ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
        DoubleBuffer d = ByteBuffer.allocateDirect(8 * a.length).order(order).asDoubleBuffer();
        d.put(a);
        yield d.clear();
      }
    };
  }
}
