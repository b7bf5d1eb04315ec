package dev.chartwell.engine.internal.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import dev.chartwell.engine.internal.segment.Segment;
import dev.chartwell.engine.internal.segment.SegmentBuilder;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The times a segment holds alone, against every other segment's range checked one by one. */
class SoleSpanProperties {

  @Test
  void aSpanMeetsNoOtherSegment() {
    qt().withExamples(400)
        .forAll(lists().of(integers().between(0, 60)).ofSizeBetween(2, 24))
        .checkAssert(
            points -> {
              List<Segment> segments = new ArrayList<>();
              for (int i = 0; i + 1 < points.size(); i += 2) {
                segments.add(segment(i, points.get(i), points.get(i + 1)));
              }
              List<SoleSpan> spans = SoleSpan.of(segments);
              assertEquals(segments.size(), spans.size());
              for (int i = 0; i < segments.size(); i++) {
                Segment s = segments.get(i);
                for (long from = s.minTimestamp(); from <= s.maxTimestamp(); from++) {
                  for (long to = from; to <= s.maxTimestamp(); to++) {
                    boolean alone = true;
                    for (int j = 0; j < segments.size(); j++) {
                      Segment o = segments.get(j);
                      if (j != i && o.minTimestamp() <= to && o.maxTimestamp() >= from) {
                        alone = false;
                      }
                    }
                    if (spans.get(i).covers(from, to)) {
                      assertTrue(alone, "segment " + i + " shares " + from + ".." + to);
                    }
                  }
                }
              }
            });
  }

  @Test
  void segmentsOneAfterAnotherEachHoldTheirOwnTimes() {
    List<Segment> segments =
        List.of(segment(0, 0, 9), segment(1, 20, 29), segment(2, 10, 19), segment(3, 29, 40));
    List<SoleSpan> spans = SoleSpan.of(segments);
    assertTrue(spans.get(0).covers(0, 9));
    assertTrue(spans.get(2).covers(10, 19));
    assertTrue(spans.get(1).covers(20, 28));
    assertFalse(spans.get(1).covers(20, 29), "29 is in the next segment too");
    assertTrue(spans.get(3).covers(30, 40));
    assertFalse(SoleSpan.NONE.covers(0, 0));
  }

  @Test
  void aSegmentInsideAnotherIsShared() {
    List<SoleSpan> spans = SoleSpan.of(List.of(segment(0, 0, 100), segment(1, 40, 50)));
    assertFalse(spans.get(1).covers(45, 45));
    assertTrue(spans.get(0).covers(0, 39));
    assertFalse(spans.get(0).covers(60, 60), "conservative: only up to the next start");
  }

  private static Segment segment(long id, long a, long b) {
    SegmentBuilder builder = new SegmentBuilder(2);
    builder.append(Math.min(a, b), new Object[0]);
    builder.append(Math.max(a, b), new Object[0]);
    return builder.build(id, null);
  }
}
