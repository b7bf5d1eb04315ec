package dev.chartwell.engine.internal.segment;

import java.util.Arrays;

/**
 * A stable least-significant-digit radix sort of {@code long}s by a range of their bits, up to 11
 * bits at a time: each pass reads the values once in order and writes them to at most 2,048 runs,
 * so the writes stream through the cache where a counting sort into many thousands of buckets (one
 * per token) would miss it at nearly every value, and a comparison sort would mispredict half its
 * branches on random keys.
 */
final class RadixSort {
  /** The widest digit: 2,048 runs, whose write positions still fit the first-level cache. */
  private static final int MAX_DIGIT_BITS = 11;

  private RadixSort() {}

  /**
   * Sorts {@code values[from, to)} by bits {@code [fromBit, toBit)}, keeping the order of values
   * equal in those bits.
   *
   * @param values the values
   * @param from the first to sort
   * @param to one past the last
   * @param fromBit the lowest bit of the key
   * @param toBit one past the highest bit of the key
   * @param scratch room for at least {@code to - from} values
   */
  static void sort(long[] values, int from, int to, int fromBit, int toBit, long[] scratch) {
    int n = to - from;
    long[] in = values;
    int inAt = from;
    long[] out = scratch;
    int outAt = 0;
    int keyBits = toBit - fromBit;
    int passes = (keyBits + MAX_DIGIT_BITS - 1) / MAX_DIGIT_BITS;
    int digitBits = passes == 0 ? 1 : (keyBits + passes - 1) / passes; // as even as they come
    int[] counts = new int[1 << digitBits];
    for (int shift = fromBit; shift < toBit && n > 1; shift += digitBits) {
      int mask = (1 << Math.min(digitBits, toBit - shift)) - 1;
      Arrays.fill(counts, 0);
      for (int i = inAt; i < inAt + n; i++) {
        counts[(int) (in[i] >>> shift) & mask]++;
      }
      if (counts[(int) (in[inAt] >>> shift) & mask] == n) {
        continue; // every value has this digit: the pass would change nothing
      }
      int sum = outAt;
      for (int d = 0; d <= mask; d++) {
        int c = counts[d];
        counts[d] = sum;
        sum += c;
      }
      for (int i = inAt; i < inAt + n; i++) {
        long v = in[i];
        out[counts[(int) (v >>> shift) & mask]++] = v;
      }
      long[] a = in;
      int aAt = inAt;
      in = out;
      inAt = outAt;
      out = a;
      outAt = aAt;
    }
    if (in != values) {
      System.arraycopy(in, inAt, values, from, n);
    }
  }
}
