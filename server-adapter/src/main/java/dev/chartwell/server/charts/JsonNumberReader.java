package dev.chartwell.server.charts;

import com.fasterxml.jackson.core.io.NumberInput;

/**
 * Reads a JSON number from a line's bytes as Jackson's strict reader would, for {@link LineParser}:
 * an integer that fits a long as a long, any other number as the nearest double, and nothing else
 * (an integer past a long, a number past the doubles, or one JSON does not allow is left to the
 * general reader). Most numbers take a fast way: an exact conversion in one operation, or {@link
 * DecimalDoubles}; the rest go through Jackson's own double parser.
 *
 * <p>Kept apart from {@link LineParser}, which reads a line's structure and names, because reading
 * a number exactly is an idea of its own, with its own rules. Nothing is made per number: one
 * reader serves a parser, and the parser reads its results after each number.
 *
 * <p>Not thread-safe: one per {@link LineParser}.
 */
final class JsonNumberReader extends ValueReader {
  /** Exact powers of ten, for numbers that convert with one correctly rounded operation. */
  private static final double[] POWERS = new double[23];

  static {
    POWERS[0] = 1;
    for (int i = 1; i < POWERS.length; i++) {
      POWERS[i] = POWERS[i - 1] * 10;
    }
  }

  /** A number's characters, for the general double parser. */
  private char[] digits = new char[64];

  private boolean isLong;
  private long longValue;
  private double doubleValue;

  /**
   * @return whether the number read last is an integer that fits a long
   */
  boolean isLong() {
    return isLong;
  }

  /**
   * @return the number read last, when {@link #isLong()}
   */
  long longValue() {
    return longValue;
  }

  /**
   * @return the number read last, when not {@link #isLong()}: finite, never -0.0
   */
  double doubleValue() {
    return doubleValue;
  }

  /**
   * Reads the number at {@link #pos} (a '-' or a digit): by JSON's grammar, an integer that fits a
   * long, or a finite double. A decimal whose digits make an integer below 2^53 and whose power of
   * ten is at most 22 either way is one correctly rounded multiplication or division of two exact
   * doubles (Clinger's fast path); one of up to 19 digits otherwise is converted by {@link
   * DecimalDoubles}, unless it declines; any other goes through Jackson's double parser. Then
   * {@link #end()}, {@link #isLong()} and the value say what it read.
   *
   * @throws GiveUp for anything the general reader must decide (an integer past a long, a number
   *     past the doubles, one JSON does not allow)
   */
  @Override
  void scan() throws GiveUp {
    int start = pos;
    boolean negative = line[pos] == '-';
    if (negative) {
      pos++;
    }
    if (pos >= end) {
      throw GiveUp.INSTANCE;
    }
    long mantissa = 0;
    int significant = 0; // digits in the mantissa, from the first non-zero one
    int scale = 0; // the mantissa's power of ten
    boolean dropped = false; // digits past the 19th, not in the mantissa
    if (line[pos] == '0') {
      pos++;
    } else if (line[pos] >= '1' && line[pos] <= '9') {
      while (pos < end && line[pos] >= '0' && line[pos] <= '9') {
        int d = line[pos++] - '0';
        if (significant < 19) {
          mantissa = mantissa * 10 + d;
          significant++;
        } else {
          scale++;
          significant++;
          dropped = true;
        }
      }
    } else {
      throw GiveUp.INSTANCE;
    }
    boolean whole = true;
    if (pos < end && line[pos] == '.') {
      whole = false;
      pos++;
      int digitsFrom = pos;
      while (pos < end && line[pos] >= '0' && line[pos] <= '9') {
        int d = line[pos++] - '0';
        if (significant < 19) {
          if (significant > 0 || d != 0) {
            significant++;
          }
          mantissa = mantissa * 10 + d;
          scale--;
        } else {
          dropped = true;
        }
      }
      if (pos == digitsFrom) {
        throw GiveUp.INSTANCE;
      }
    }
    long exp = 0;
    if (pos < end && (line[pos] == 'e' || line[pos] == 'E')) {
      whole = false;
      pos++;
      boolean negativeExp = false;
      if (pos < end && (line[pos] == '+' || line[pos] == '-')) {
        negativeExp = line[pos] == '-';
        pos++;
      }
      int digitsFrom = pos;
      while (pos < end && line[pos] >= '0' && line[pos] <= '9') {
        if (exp < 100_000) {
          exp = exp * 10 + (line[pos] - '0');
        }
        pos++;
      }
      if (pos == digitsFrom) {
        throw GiveUp.INSTANCE;
      }
      exp = negativeExp ? -exp : exp;
    }
    if (pos < end && line[pos] >= '0' && line[pos] <= '9') {
      throw GiveUp.INSTANCE; // a leading zero followed by digits
    }
    if (whole) {
      if (significant > 19 || (significant == 19 && !fitsLong(start + (negative ? 1 : 0)))) {
        throw GiveUp.INSTANCE; // past a long (or Long.MIN_VALUE): left to the general reader
      }
      longValue = negative ? -mantissa : mantissa;
      isLong = true;
      return;
    }
    long power = scale + exp;
    double d;
    long bits;
    if (!dropped && mantissa >= 0 && mantissa < (1L << 53) && Math.abs(power) <= 22) {
      d = power >= 0 ? mantissa * POWERS[(int) power] : mantissa / POWERS[(int) -power];
    } else if (mantissa == 0) {
      d = 0; // the digits were zeros (a dropped digit is not: it follows 19 significant ones)
    } else if (!dropped
        && (bits = DecimalDoubles.toDouble(mantissa, power)) != DecimalDoubles.UNDECIDED) {
      d = Double.longBitsToDouble(bits);
    } else {
      d = slowDouble(start);
    }
    if (negative) {
      d = -d;
    }
    if (!Double.isFinite(d)) {
      throw GiveUp.INSTANCE;
    }
    doubleValue = d == 0 ? 0.0 : d; // JSON numbers read as decimals have no -0.0
    isLong = false;
  }

  /** Whether the 19 digits from {@code from} are at most Long.MAX_VALUE. */
  private boolean fitsLong(int from) {
    byte[] max = {
      '9', '2', '2', '3', '3', '7', '2', '0', '3', '6', '8', '5', '4', '7', '7', '5', '8', '0', '7'
    };
    for (int i = 0; i < 19; i++) {
      if (line[from + i] != max[i]) {
        return line[from + i] < max[i];
      }
    }
    return true;
  }

  /** The number from {@code start} to {@code pos} (without its sign) by Jackson's parser. */
  private double slowDouble(int start) throws GiveUp {
    int from = line[start] == '-' ? start + 1 : start;
    int length = pos - from;
    if (length > digits.length) {
      digits = new char[Math.max(length, 2 * digits.length)];
    }
    for (int i = 0; i < length; i++) {
      digits[i] = (char) line[from + i];
    }
    try {
      return NumberInput.parseDouble(digits, 0, length, true);
    } catch (NumberFormatException e) {
      throw GiveUp.INSTANCE;
    }
  }
}
