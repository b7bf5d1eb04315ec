package dev.chartwell.server.charts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import java.math.BigDecimal;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The Eisel–Lemire conversion gives {@link Double#parseDouble}'s double to the bit whenever it
 * answers, and declines only rarely.
 */
class DecimalDoublesTest {
  /** Whether the conversion agrees with the JDK's; true also when it declines. */
  private static boolean agrees(long mantissa, int power) {
    long bits = DecimalDoubles.toDouble(mantissa, power);
    if (bits == DecimalDoubles.UNDECIDED) {
      return true;
    }
    double expected = Double.parseDouble(Long.toUnsignedString(mantissa) + "e" + power);
    return bits == Double.doubleToRawLongBits(expected);
  }

  @Test
  void agreesWithTheJdkOnAnyMantissaAndPower() {
    qt().withExamples(200_000)
        .forAll(longs().between(1, Long.MAX_VALUE), integers().between(-360, 360))
        .check(DecimalDoublesTest::agrees);
  }

  /** 17 to 19 digits (what programs print) at the powers of everyday values. */
  @Test
  void agreesOnSeventeenToNineteenDigits() {
    qt().withExamples(200_000)
        .forAll(
            longs().between(10_000_000_000_000_000L, Long.MAX_VALUE), integers().between(-40, 20))
        .check(DecimalDoublesTest::agrees);
  }

  /** 19 digits past a signed long (up to 9,999,999,999,999,999,999): the mantissa is unsigned. */
  @Test
  void agreesOnMantissasPastASignedLong() {
    long nineteenNines = Long.parseUnsignedLong("9999999999999999999");
    qt().withExamples(100_000)
        .forAll(longs().between(0, nineteenNines - Long.MAX_VALUE), integers().between(-40, 20))
        .check((offset, power) -> agrees(Long.MAX_VALUE + offset, power));
  }

  /**
   * Values half-way between two doubles and one unit of the last decimal digit beside them: the
   * cases the algorithm must either get right or decline.
   */
  @Test
  void getsHalfWayNeighboursRightOrDeclines() {
    Random random = new Random(38);
    int declined = 0;
    int tried = 0;
    for (int i = 0; i < 20_000; i++) {
      double d = Double.longBitsToDouble(random.nextLong() >>> 2);
      if (!Double.isFinite(d) || d == 0 || Math.getExponent(d) < -1000) {
        continue;
      }
      BigDecimal half =
          new BigDecimal(d).add(new BigDecimal(Math.nextUp(d))).divide(BigDecimal.valueOf(2));
      BigDecimal rounded = half.round(new java.math.MathContext(19));
      for (int delta = -1; delta <= 1; delta++) {
        BigDecimal v = rounded.add(BigDecimal.valueOf(delta, rounded.scale()));
        long mantissa = v.unscaledValue().longValue();
        int power = -v.scale();
        if (v.unscaledValue().bitLength() > 63 || mantissa <= 0) {
          continue;
        }
        tried++;
        assertTrue(agrees(mantissa, power), v.toString());
        if (DecimalDoubles.toDouble(mantissa, power) == DecimalDoubles.UNDECIDED) {
          declined++;
        }
      }
    }
    assertTrue(tried > 50_000, "tried " + tried);
    assertTrue(declined < tried / 10, declined + " declined of " + tried);
  }

  @Test
  void knownValues() {
    assertEquals(
        358.01728757263413,
        Double.longBitsToDouble(DecimalDoubles.toDouble(35801728757263413L, -14)));
    assertEquals(
        Double.MAX_VALUE,
        Double.longBitsToDouble(DecimalDoubles.toDouble(17976931348623157L, 292)));
    assertEquals(
        Double.MIN_NORMAL,
        Double.longBitsToDouble(DecimalDoubles.toDouble(22250738585072014L, -324)));
    // 2^53 + 1 lies exactly half-way between two doubles: declined, for the exact conversion.
    assertEquals(DecimalDoubles.UNDECIDED, DecimalDoubles.toDouble(9007199254740993L, 0));
    assertEquals(DecimalDoubles.UNDECIDED, DecimalDoubles.toDouble(1, 400)); // infinite
    assertEquals(DecimalDoubles.UNDECIDED, DecimalDoubles.toDouble(1, -330)); // subnormal
    assertEquals(DecimalDoubles.UNDECIDED, DecimalDoubles.toDouble(0, 5));
  }

  /**
   * Rarely declines on random digits with a fraction (an integer of 54 bits or more is often
   * exactly half-way, and declined).
   */
  @Test
  void declinesRarely() {
    Random random = new Random(7);
    int declined = 0;
    for (int i = 0; i < 100_000; i++) {
      long mantissa = 10_000_000_000_000_000L + (random.nextLong() >>> 1) % 9_000_000_000_000_000L;
      if (DecimalDoubles.toDouble(mantissa, random.nextInt(40) - 41) == DecimalDoubles.UNDECIDED) {
        declined++;
      }
    }
    assertTrue(declined < 200, declined + " of 100,000 declined"); // 121 when written
  }
}
