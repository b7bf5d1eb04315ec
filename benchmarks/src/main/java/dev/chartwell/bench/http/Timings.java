package dev.chartwell.bench.http;

import java.util.ArrayList;
import java.util.List;

/** Durations of repeated runs, in milliseconds. */
final class Timings {
  private final List<Double> millis = new ArrayList<>();

  /**
   * @param ms one run's duration ({@code NaN} is ignored: the figure was not reported)
   */
  void add(double ms) {
    if (!Double.isNaN(ms)) {
      millis.add(ms);
    }
  }

  /**
   * @return how many runs
   */
  int count() {
    return millis.size();
  }

  /**
   * @return the first run's duration, {@code NaN} when empty
   */
  double first() {
    return millis.isEmpty() ? Double.NaN : millis.get(0);
  }

  /**
   * @return the last run's duration, {@code NaN} when empty
   */
  double last() {
    return millis.isEmpty() ? Double.NaN : millis.get(millis.size() - 1);
  }

  /**
   * @return the median (the mean of the two middle values for an even count), {@code NaN} when
   *     empty
   */
  double median() {
    if (millis.isEmpty()) {
      return Double.NaN;
    }
    List<Double> s = sorted();
    int n = s.size();
    return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
  }

  /**
   * @return the smallest, {@code NaN} when empty
   */
  double min() {
    return millis.isEmpty() ? Double.NaN : sorted().get(0);
  }

  /**
   * @return the largest, {@code NaN} when empty
   */
  double max() {
    return millis.isEmpty() ? Double.NaN : sorted().get(millis.size() - 1);
  }

  private List<Double> sorted() {
    List<Double> s = new ArrayList<>(millis);
    s.sort(null);
    return s;
  }
}
