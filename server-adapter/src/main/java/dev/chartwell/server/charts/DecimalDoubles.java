package dev.chartwell.server.charts;

import java.math.BigInteger;

/**
 * Converts a decimal {@code mantissa × 10^power} (the mantissa exact, of at most 19 digits) to the
 * nearest double, as {@link Double#parseDouble} would, with the Eisel–Lemire algorithm (Daniel
 * Lemire, "Number Parsing at a Gigabyte per Second", 2021; as in Go's {@code strconv}): one or two
 * 64×64-bit multiplications by a 128-bit approximation of the power of ten. In the rare cases where
 * that approximation cannot decide the rounding (a value too close to half-way between two
 * doubles), or the result would be subnormal or infinite, it declines, and the caller converts the
 * text the slow, exact way.
 *
 * <p>It serves {@link JsonNumberReader}: a double written with 17 digits (most doubles printed by a
 * program, such as {@code 358.01728757263413}) is past the exact one-operation conversion, which
 * needs a mantissa below 2^53.
 */
final class DecimalDoubles {
  /** The smallest power of ten with an entry. */
  private static final int MIN_POWER = -348;

  /** The largest power of ten with an entry. */
  private static final int MAX_POWER = 347;

  /**
   * Per power of ten from {@link #MIN_POWER}: the first 128 bits of its binary significand (the
   * highest bit set), rounded down; high word at {@code 2 * i}, low word at {@code 2 * i + 1}.
   */
  private static final long[] POWERS = powers();

  /** What {@link #toDouble} returns when it cannot decide: the caller converts the slow way. */
  static final long UNDECIDED = -1;

  private DecimalDoubles() {}

  private static long[] powers() {
    long[] out = new long[2 * (MAX_POWER - MIN_POWER + 1)];
    BigInteger mask = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);
    for (int p = MIN_POWER; p <= MAX_POWER; p++) {
      BigInteger m;
      if (p >= 0) {
        BigInteger v = BigInteger.TEN.pow(p);
        int shift = v.bitLength() - 128;
        m = shift >= 0 ? v.shiftRight(shift) : v.shiftLeft(-shift);
      } else {
        // 2^k / 10^-p with k chosen so that the quotient has exactly 128 bits, rounded down.
        BigInteger d = BigInteger.TEN.pow(-p);
        m = BigInteger.ONE.shiftLeft(127 + d.bitLength()).divide(d);
      }
      int i = 2 * (p - MIN_POWER);
      out[i] = m.shiftRight(64).longValue();
      out[i + 1] = m.and(mask).longValue();
    }
    return out;
  }

  /**
   * The bits of the double nearest to {@code mantissa × 10^power}, positive.
   *
   * @param mantissa the decimal digits as an unsigned 64-bit integer, exact (not 0)
   * @param power the power of ten
   * @return the double's bits ({@link Double#longBitsToDouble}), or {@link #UNDECIDED}
   */
  static long toDouble(long mantissa, long power) {
    if (mantissa == 0 || power < MIN_POWER || power > MAX_POWER) {
      return UNDECIDED;
    }
    int p = (int) power;
    int clz = Long.numberOfLeadingZeros(mantissa);
    long man = mantissa << clz;
    long exponent = ((217706 * p) >> 16) + 64 + 1023 - clz; // floor(p * log2(10)) + ...
    int entry = 2 * (p - MIN_POWER);
    long powerHigh = POWERS[entry];
    long xHi = unsignedMultiplyHigh(man, powerHigh);
    long xLo = man * powerHigh;
    if ((xHi & 0x1FF) == 0x1FF && Long.compareUnsigned(xLo + man, man) < 0) {
      // The product's low bits may carry into the high ones: the next 64 bits of the power decide.
      long powerLow = POWERS[entry + 1];
      long yHi = unsignedMultiplyHigh(man, powerLow);
      long yLo = man * powerLow;
      long mergedHi = xHi;
      long mergedLo = xLo + yHi;
      if (Long.compareUnsigned(mergedLo, xLo) < 0) {
        mergedHi++;
      }
      if ((mergedHi & 0x1FF) == 0x1FF
          && mergedLo + 1 == 0
          && Long.compareUnsigned(yLo + man, man) < 0) {
        return UNDECIDED;
      }
      xHi = mergedHi;
      xLo = mergedLo;
    }
    long msb = xHi >>> 63;
    long significand = xHi >>> (msb + 9);
    exponent -= 1 ^ msb;
    if (xLo == 0 && (xHi & 0x1FF) == 0 && (significand & 3) == 1) {
      return UNDECIDED; // exactly half-way in 128 bits: too close to tell
    }
    significand += significand & 1; // round to 53 bits
    significand >>>= 1;
    if (significand >>> 53 > 0) {
      significand >>>= 1;
      exponent++;
    }
    if (exponent <= 0 || exponent >= 0x7FF) {
      return UNDECIDED; // subnormal or infinite
    }
    return exponent << 52 | (significand & 0x000F_FFFF_FFFF_FFFFL);
  }

  /** The high 64 bits of the unsigned 128-bit product (Java 18 has it as a method). */
  private static long unsignedMultiplyHigh(long a, long b) {
    return Math.multiplyHigh(a, b) + ((a >> 63) & b) + ((b >> 63) & a);
  }
}
