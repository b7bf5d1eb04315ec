package dev.chartwell.server.charts;

/**
 * Reads the ISO-8601 form nearly every log shipper writes, {@code
 * 2026-11-21T10:15:30[.fraction](Z|+hh:mm|-hh:mm)}, from its UTF-8 bytes to epoch milliseconds, as
 * {@code OffsetDateTime.parse(text).toInstant().toEpochMilli()} does (the fraction truncated to the
 * millisecond). Anything else, or an instant not after 1970, is left to that general parsing: the
 * answer is then {@link #OTHER}.
 */
final class IsoTimes {
  /** The answer for text this reader leaves to the general parsing. */
  static final long OTHER = -1;

  private static final int SHORTEST = "2026-11-21T10:15:30Z".length();
  private static final int LONGEST = "2026-11-21T10:15:30.123456789+01:00".length();

  private IsoTimes() {}

  /**
   * @param b holds the text
   * @param from where it starts
   * @param to where it ends
   * @return epoch milliseconds (positive), or {@link #OTHER}
   */
  static long millis(byte[] b, int from, int to) {
    int length = to - from;
    if (length < SHORTEST
        || length > LONGEST
        || b[from + 4] != '-'
        || b[from + 7] != '-'
        || b[from + 10] != 'T'
        || b[from + 13] != ':'
        || b[from + 16] != ':') {
      return OTHER;
    }
    int year = digits(b, from, 4);
    int month = digits(b, from + 5, 2);
    int day = digits(b, from + 8, 2);
    int hour = digits(b, from + 11, 2);
    int minute = digits(b, from + 14, 2);
    int second = digits(b, from + 17, 2);
    if (year < 0
        || month < 1
        || month > 12
        || day < 1
        || day > monthLength(year, month)
        || hour < 0
        || hour > 23
        || minute < 0
        || minute > 59
        || second < 0
        || second > 59) {
      return OTHER;
    }
    int pos = from + 19;
    int millis = 0;
    if (b[pos] == '.') {
      int start = ++pos;
      while (pos < to && b[pos] >= '0' && b[pos] <= '9') {
        if (pos - start < 3) {
          millis = millis * 10 + (b[pos] - '0');
        }
        pos++;
      }
      int count = pos - start;
      if (count == 0 || count > 9) {
        return OTHER;
      }
      for (int i = count; i < 3; i++) {
        millis *= 10;
      }
    }
    int offsetSeconds;
    if (pos + 1 == to && b[pos] == 'Z') {
      offsetSeconds = 0;
    } else if (pos + 6 == to && (b[pos] == '+' || b[pos] == '-') && b[pos + 3] == ':') {
      int oh = digits(b, pos + 1, 2);
      int om = digits(b, pos + 4, 2);
      if (oh < 0 || om < 0 || om > 59 || oh * 60 + om > 18 * 60) {
        return OTHER;
      }
      offsetSeconds = (oh * 60 + om) * 60 * (b[pos] == '-' ? -1 : 1);
    } else {
      return OTHER;
    }
    long seconds =
        epochDay(year, month, day) * 86_400L + hour * 3600L + minute * 60L + second - offsetSeconds;
    long result = seconds * 1000 + millis;
    return seconds < 0 || result <= 0 ? OTHER : result;
  }

  /** The decimal number of {@code count} digits at {@code at}, or -1. */
  private static int digits(byte[] b, int at, int count) {
    int v = 0;
    for (int i = at; i < at + count; i++) {
      int d = b[i] - '0';
      if (d < 0 || d > 9) {
        return -1;
      }
      v = v * 10 + d;
    }
    return v;
  }

  private static int monthLength(int year, int month) {
    return switch (month) {
      case 2 -> (year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)) ? 29 : 28;
      case 4, 6, 9, 11 -> 30;
      default -> 31;
    };
  }

  /** Days from 1970-01-01 to a date of the proleptic Gregorian calendar (Hinnant's algorithm). */
  private static long epochDay(int year, int month, int day) {
    int y = month <= 2 ? year - 1 : year;
    int era = Math.floorDiv(y, 400);
    int yearOfEra = y - era * 400;
    int dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
    int dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear;
    return era * 146_097L + dayOfEra - 719_468;
  }
}
