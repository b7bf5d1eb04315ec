package dev.chartwell.engine.internal.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import dev.chartwell.engine.Granularity;
import dev.chartwell.engine.internal.segment.Segment;
import dev.chartwell.engine.internal.segment.SegmentBuilder;
import dev.chartwell.engine.internal.segment.SegmentFile;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The buckets segments share, against every segment's rows counted one by one. */
class SharedBucketsProperties {
  private static final long S = 1000;

  @TempDir Path dir;

  @Test
  void aBucketIsSoleExactlyWhenOneSegmentHoldsRowsInItWithinTheQuery() {
    // Segments of 1-20 rows at whole seconds in the first 4 minutes, overlapping as they fall;
    // queries over part of that or without an end; a built-in granularity (bucket tables) and a
    // library caller's (searched), both of 15 s.
    qt().withExamples(400)
        .forAll(
            lists()
                .of(lists().of(integers().between(0, 240)).ofSizeBetween(1, 20))
                .ofSizeBetween(1, 6),
            integers().between(0, 120),
            integers().between(0, 300),
            integers().between(0, 1))
        .checkAssert(
            (rows, from, span, custom) -> {
              List<Segment> segments = new ArrayList<>();
              for (int i = 0; i < rows.size(); i++) {
                segments.add(segment(i, rows.get(i)));
              }
              long start = from * S;
              long end = span == 300 ? Long.MAX_VALUE : start + span * S;
              Granularity g =
                  custom == 1 ? new Granularity("15 s", 15 * S) : Granularity.FIFTEEN_SECONDS;
              SharedBuckets shared = SharedBuckets.of(segments, start, end, g);
              for (long bucket = 0; bucket <= 240 * S; bucket += 15 * S) {
                int holders = 0;
                for (Segment s : segments) {
                  for (int r = 0; r < s.rows(); r++) {
                    long ts = s.timestamp(r);
                    if (ts >= start && ts <= end && ts >= bucket && ts < bucket + 15 * S) {
                      holders++;
                      break;
                    }
                  }
                }
                if (holders > 0) {
                  assertEquals(
                      holders == 1,
                      shared.sole(bucket, 15 * S),
                      "bucket " + bucket + " held by " + holders + " segments");
                }
              }
            });
  }

  @Test
  void segmentsThatInterleaveInTimeShareOnlyTheBucketsBothHold() {
    // One segment's range holds the other's (as when two connections' events, each from its own
    // part of the day, are sealed together): their time ranges share everything, their buckets
    // only the fourth minute.
    Segment a = segment(0, List.of(0, 10, 200, 210));
    Segment b = segment(1, List.of(70, 80, 130, 140, 215));
    SharedBuckets shared = SharedBuckets.of(List.of(a, b), 0, Long.MAX_VALUE, Granularity.MINUTE);
    assertTrue(shared.sole(0, 60 * S));
    assertTrue(shared.sole(60 * S, 60 * S));
    assertTrue(shared.sole(120 * S, 60 * S));
    assertFalse(shared.sole(180 * S, 60 * S));
    SharedBuckets later = SharedBuckets.of(List.of(a, b), 0, 214 * S, Granularity.MINUTE);
    assertTrue(later.sole(180 * S, 60 * S), "b's row at 215 s is after the query");
  }

  @Test
  void aSegmentNotVerifiedYetSharesItsWholeRange() throws Exception {
    Segment onHeap = segment(0, List.of(0, 100));
    Path file = dir.resolve("1.seg");
    try (FileChannel out =
        FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      SegmentFile.write(segment(1, List.of(200, 300)), out);
    }
    Segment mapped = SegmentFile.open(file, 1);
    assertFalse(mapped.isVerified());
    SharedBuckets shared =
        SharedBuckets.of(List.of(onHeap, mapped), 0, Long.MAX_VALUE, Granularity.MINUTE);
    assertTrue(shared.sole(0, 60 * S));
    assertFalse(shared.sole(180 * S, 60 * S), "inside the unverified segment's range");
    assertFalse(shared.sole(240 * S, 60 * S), "a minute it holds no row in: still not known");
    assertTrue(shared.sole(360 * S, 60 * S), "after its last event");
    assertFalse(SharedBuckets.ALL.sole(0, 60 * S));
  }

  /** A segment with rows at these seconds (sorted, as a segment's rows are). */
  private static Segment segment(long id, List<Integer> seconds) {
    int[] sorted = seconds.stream().mapToInt(Integer::intValue).sorted().toArray();
    SegmentBuilder builder = new SegmentBuilder(sorted.length);
    for (int s : sorted) {
      builder.append(s * S, new Object[0]);
    }
    return builder.build(id, null);
  }
}
