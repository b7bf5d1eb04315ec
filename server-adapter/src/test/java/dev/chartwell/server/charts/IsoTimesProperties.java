package dev.chartwell.server.charts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The byte reader of ISO-8601 times gives the instant {@link OffsetDateTime#parse} gives, to the
 * millisecond, for every text it takes; it leaves to that parsing every text it does not take
 * (other forms, impossible dates, instants before 1970). The texts are valid times of every
 * fraction length and offset, and the same texts with one character changed.
 */
class IsoTimesProperties {
  @Test
  void readsAsOffsetDateTimeDoes() {
    qt().withExamples(2000)
        .forAll(longs().all())
        .checkAssert(
            seed -> {
              SplittableRandom r = new SplittableRandom(seed);
              String text = text(r);
              same(text);
              char[] changed = text.toCharArray();
              changed[r.nextInt(changed.length)] = "0123456789+-:.TZtz 9".charAt(r.nextInt(20));
              same(new String(changed));
            });
  }

  @Test
  void edgesOfTheCalendar() {
    for (String t :
        new String[] {
          "2024-02-29T23:59:59.999Z", "2023-02-29T00:00:00Z", "2100-02-29T00:00:00Z",
          "2000-02-29T00:00:00Z", "1970-01-01T00:00:00Z", "1970-01-01T00:00:00.001Z",
          "1970-01-01T00:30:00+01:00", "2026-12-31T23:59:59-18:00", "2026-12-31T23:59:59+18:01",
          "2026-11-21T10:15:30.Z", "2026-11-21T10:15:30.1234567891Z", "2026-11-21T24:00:00Z",
          "2026-11-21T10:15:60Z", "2026-11-21T10:15Z", "9999-12-31T23:59:59.999999999+00:00"
        }) {
      same(t);
    }
  }

  private static void same(String text) {
    long expected;
    try {
      expected = OffsetDateTime.parse(text).toInstant().toEpochMilli();
    } catch (DateTimeParseException e) {
      expected = IsoTimes.OTHER;
    }
    byte[] b = ("x" + text + "y").getBytes(StandardCharsets.UTF_8);
    long got = IsoTimes.millis(b, 1, b.length - 1);
    if (got != IsoTimes.OTHER) {
      assertEquals(expected, got, text);
    } else if (expected != IsoTimes.OTHER) {
      // Left to the general parsing: only what is not the common form, or not after 1970.
      assertEquals(
          true,
          expected <= 0
              || !text.matches(
                  "\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d{1,9})?"
                      + "(Z|[+-]\\d\\d:\\d\\d)"),
          "the common form left to the general parsing: " + text);
    }
  }

  /** A time in the common form: any second of years 1960 to 2299, any fraction and offset. */
  static String text(SplittableRandom r) {
    long seconds = r.nextLong(-315_619_200L, 10_413_792_000L);
    int nanos = r.nextInt(1_000_000_000);
    int offset = r.nextInt(3) == 0 ? 0 : (r.nextInt(-18 * 60, 18 * 60 + 1)) * 60;
    OffsetDateTime t =
        OffsetDateTime.ofInstant(
            java.time.Instant.ofEpochSecond(seconds, nanos),
            java.time.ZoneOffset.ofTotalSeconds(offset));
    String date =
        String.format(
            java.util.Locale.ROOT,
            "%04d-%02d-%02dT%02d:%02d:%02d",
            t.getYear(),
            t.getMonthValue(),
            t.getDayOfMonth(),
            t.getHour(),
            t.getMinute(),
            t.getSecond());
    int digits = r.nextInt(10);
    String fraction = digits == 0 ? "" : "." + String.format("%09d", nanos).substring(0, digits);
    return date
        + fraction
        + (offset == 0 && r.nextBoolean() ? "Z" : t.getOffset().getId().replace("Z", "+00:00"));
  }
}
