package dev.chartwell.engine.internal.segment;

import dev.chartwell.engine.ColumnType;
import java.util.SplittableRandom;

/**
 * Test helper: the seeded segment behind the format fixtures in {@code segment-format/}. Every
 * column type, absent values, low-cardinality and unique strings, hex ids, templated bodies (whose
 * sorted values share long prefixes) with their token index, longs with a value index, doubles and
 * booleans. The same seed always builds the same segment.
 */
final class FixtureSegment {
  private static final String[] LEVELS = {"debug", "info", "warn", "error", "é", "\uD83D\uDE00"};
  private static final String[] TEMPLATES = {
    "GET /api/v1/users/%d 200 in %dms",
    "request timeout after %dms calling payment-service (attempt %d)",
    "cache miss for key session:%d (%d bytes)",
    "Ünïcode bödy %d — %d ✓"
  };

  private FixtureSegment() {}

  /**
   * @param seed the seed
   * @param rows how many rows
   * @param id the segment id
   * @return the segment, built in memory
   */
  static Segment build(long seed, int rows, long id) {
    SplittableRandom random = new SplittableRandom(seed);
    SegmentBuilder b = new SegmentBuilder(rows);
    b.addColumn("level", ColumnType.STRING);
    b.addColumn("status", ColumnType.LONG);
    b.addColumn("big", ColumnType.LONG);
    b.addColumn("duration", ColumnType.DOUBLE);
    b.addColumn("ok", ColumnType.BOOL);
    b.addColumn("Body", ColumnType.STRING);
    b.addColumn("trace", ColumnType.STRING);
    b.addColumn("host", ColumnType.STRING);
    for (int r = 0; r < rows; r++) {
      boolean absent = random.nextInt(10) == 0;
      String template = TEMPLATES[random.nextInt(TEMPLATES.length)];
      b.append(
          1_000_000L + r * 10L - random.nextInt(50),
          new Object[] {
            absent ? null : LEVELS[random.nextInt(LEVELS.length)],
            absent ? null : (long) (200 + 100 * random.nextInt(4)),
            random.nextInt(7) == 0 ? null : random.nextLong(),
            absent ? null : Math.exp(random.nextGaussian()),
            random.nextInt(5) == 0 ? null : random.nextBoolean(),
            random.nextInt(20) == 0
                ? null
                : String.format(template, random.nextInt(100_000), random.nextInt(1_000)),
            random.nextInt(8) == 0 ? null : hex(random, 32),
            "host-" + random.nextInt(300)
          });
    }
    return b.build(id, "Body");
  }

  private static String hex(SplittableRandom random, int digits) {
    StringBuilder s = new StringBuilder(digits);
    for (int i = 0; i < digits; i++) {
      s.append(Character.forDigit(random.nextInt(16), 16));
    }
    return s.toString();
  }
}
