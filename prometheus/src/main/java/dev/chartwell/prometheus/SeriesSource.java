package dev.chartwell.prometheus;

import java.util.List;

/**
 * Where PromQL reads series: the one seam between a store and the evaluator. The server implements
 * it over a service's metric tables; tests over lists in memory. Implementations must be safe to
 * call from several threads and should read only what the time range and matchers need.
 */
public interface SeriesSource {

  /**
   * Every series whose labels satisfy all matchers, with its samples in {@code [minTime, maxTime]}
   * (both inclusive), sorted by time; series without a sample in the range may be left out. The
   * evaluator reads each element of the list once, possibly from several threads at once (a large
   * selection is shared with a helper thread), so a list may make each series when asked for it.
   *
   * @param matchers the selector (at least one matcher that does not match the empty string)
   * @param minTime the first millisecond wanted
   * @param maxTime the last millisecond wanted
   * @return the series, each once, in any order
   */
  List<SeriesData> select(List<LabelMatcher> matchers, long minTime, long maxTime);

  /**
   * The label sets of the series that any selector matches and that have a sample in the range
   * ({@code /api/v1/series}); every series when {@code selectors} is empty.
   *
   * @param selectors selectors, each a list of matchers
   * @param minTime first millisecond
   * @param maxTime last millisecond
   * @return distinct label sets, sorted
   */
  List<Labels> series(List<List<LabelMatcher>> selectors, long minTime, long maxTime);

  /**
   * The label names used by matching series ({@code /api/v1/labels}), sorted.
   *
   * @param selectors selectors, each a list of matchers; all series when empty
   * @param minTime first millisecond
   * @param maxTime last millisecond
   * @return distinct names, sorted
   */
  List<String> labelNames(List<List<LabelMatcher>> selectors, long minTime, long maxTime);

  /**
   * One label's values among matching series ({@code /api/v1/label/<name>/values}), sorted.
   *
   * @param name the label
   * @param selectors selectors, each a list of matchers; all series when empty
   * @param minTime first millisecond
   * @param maxTime last millisecond
   * @return distinct non-empty values, sorted
   */
  List<String> labelValues(
      String name, List<List<LabelMatcher>> selectors, long minTime, long maxTime);
}
