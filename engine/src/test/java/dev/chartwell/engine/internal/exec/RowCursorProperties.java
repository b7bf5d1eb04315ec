package dev.chartwell.engine.internal.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.roaringbitmap.buffer.MutableRoaringBitmap;

/**
 * A cursor hands out the matching rows in order, each once, never one at or past the limit it was
 * given, and a batch shorter than asked only when it is the last below the limit, whatever the
 * batch size and wherever the limits (bucket ends) fall.
 */
class RowCursorProperties {

  @Test
  void handsOutEachRowBelowEachLimitOnce() {
    qt().withExamples(2000)
        .forAll(
            lists().of(integers().between(0, 20_000)).ofSizeBetween(0, 3000),
            lists().of(integers().between(1, 3000)).ofSizeBetween(1, 30),
            integers().between(1, 70),
            integers().between(0, 1))
        .checkAssert(
            (rows, steps, batch, all) -> {
              TreeSet<Integer> expected = new TreeSet<>(rows);
              MutableRoaringBitmap bitmap = new MutableRoaringBitmap();
              expected.forEach(bitmap::add);
              int to = 20_001;
              RowCursor cursor = RowCursor.of(all == 1 ? null : bitmap, 0, to, batch);
              TreeSet<Integer> source =
                  all == 1 ? new TreeSet<>(IntStream.range(0, to).boxed().toList()) : expected;
              List<Integer> seen = new ArrayList<>();
              int[] out = new int[batch];
              int limit = 0;
              for (int step : steps) {
                limit = Math.min(to, limit + step);
                List<Integer> got = new ArrayList<>();
                int n;
                while ((n = cursor.next(out, limit)) > 0) {
                  for (int i = 0; i < n; i++) {
                    got.add(out[i]);
                  }
                  if (n < out.length) {
                    // a short batch is the last below the limit (SegmentTask relies on it)
                    assertEquals(0, cursor.next(out, limit), "rows after a short batch");
                    break;
                  }
                }
                List<Integer> want =
                    new ArrayList<>(
                        source.subSet(seen.isEmpty() ? 0 : seen.get(seen.size() - 1) + 1, limit));
                assertEquals(want, got, "below " + limit + " in batches of " + batch);
                seen.addAll(got);
              }
            });
  }
}
