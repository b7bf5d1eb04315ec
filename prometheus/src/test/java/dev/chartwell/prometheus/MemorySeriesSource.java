package dev.chartwell.prometheus;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;

/** A {@link SeriesSource} over series held in memory (tests and benchmarks). */
public final class MemorySeriesSource implements SeriesSource {
  private final List<SeriesData> series;

  /**
   * A source of these series.
   *
   * @param series each with its samples sorted by time
   */
  public MemorySeriesSource(List<SeriesData> series) {
    this.series = List.copyOf(series);
  }

  @Override
  public List<SeriesData> select(List<LabelMatcher> matchers, long minTime, long maxTime) {
    List<SeriesData> out = new ArrayList<>();
    for (SeriesData s : series) {
      if (!s.labels().matches(matchers)) {
        continue;
      }
      long[] ts = s.timestamps();
      int lo = lowerBound(ts, minTime);
      int hi = lowerBound(ts, maxTime + 1);
      if (hi > lo) {
        out.add(
            lo == 0 && hi == ts.length
                ? s
                : new SeriesData(
                    s.labels(),
                    Arrays.copyOfRange(ts, lo, hi),
                    Arrays.copyOfRange(s.values(), lo, hi)));
      }
    }
    return out;
  }

  private static int lowerBound(long[] ts, long t) {
    int i = Arrays.binarySearch(ts, t);
    if (i < 0) {
      return -i - 1;
    }
    while (i > 0 && ts[i - 1] == t) {
      i--;
    }
    return i;
  }

  @Override
  public List<Labels> series(List<List<LabelMatcher>> selectors, long minTime, long maxTime) {
    TreeSet<Labels> out = new TreeSet<>();
    for (SeriesData s : series) {
      if (selectors.isEmpty() || selectors.stream().anyMatch(m -> s.labels().matches(m))) {
        out.add(s.labels());
      }
    }
    return new ArrayList<>(out);
  }

  @Override
  public List<String> labelNames(List<List<LabelMatcher>> selectors, long minTime, long maxTime) {
    TreeSet<String> out = new TreeSet<>();
    for (Labels l : series(selectors, minTime, maxTime)) {
      out.addAll(l.asMap().keySet());
    }
    return new ArrayList<>(out);
  }

  @Override
  public List<String> labelValues(
      String name, List<List<LabelMatcher>> selectors, long minTime, long maxTime) {
    TreeSet<String> out = new TreeSet<>();
    for (Labels l : series(selectors, minTime, maxTime)) {
      if (!l.get(name).isEmpty()) {
        out.add(l.get(name));
      }
    }
    return new ArrayList<>(out);
  }
}
