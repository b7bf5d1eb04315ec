package dev.chartwell.prometheus.promql;

import dev.chartwell.prometheus.LabelMatcher;
import dev.chartwell.prometheus.SeriesData;
import dev.chartwell.prometheus.SeriesSource;
import dev.chartwell.prometheus.promql.Expr.At;
import java.util.List;

/** The evaluation times of one query and what every part of its evaluation shares. */
final class Steps {
  final long start;
  final long end;
  final long step;
  final int n;
  final EvalSettings settings;
  private final SeriesSource source;
  private long samplesLoaded;

  Steps(SeriesSource source, EvalSettings settings, long start, long end, long step) {
    this.source = source;
    this.settings = settings;
    this.start = start;
    this.end = end;
    this.step = step;
    long count = (end - start) / step + 1;
    if (count > Integer.MAX_VALUE / 8) {
      throw PromQlException.execution("too many evaluation steps: " + count);
    }
    this.n = (int) count;
  }

  long time(int i) {
    return start + i * step;
  }

  /** The time a selector reads at step i: the step's time (or its {@code @} time) minus offset. */
  long refTime(Expr.VectorSelector vs, int i) {
    At at = vs.at();
    long t;
    if (at == null) {
      t = time(i);
    } else {
      t =
          switch (at.kind()) {
            case TIME -> at.timeMs();
            case START -> start;
            case END -> end;
          };
    }
    return t - vs.offsetMs();
  }

  /** Loads a selector's series for the reference times of all steps, back by {@code back} ms. */
  List<SeriesData> load(Expr.VectorSelector vs, long back) {
    long first = refTime(vs, 0);
    long last = refTime(vs, n - 1);
    List<LabelMatcher> matchers = vs.matchers();
    List<SeriesData> series =
        source.select(matchers, Math.min(first, last) - back, Math.max(first, last));
    for (SeriesData s : series) {
      samplesLoaded += s.size();
    }
    if (samplesLoaded > settings.maxSamples()) {
      throw PromQlException.execution(
          "query processing would load too many samples into memory in query execution (limit "
              + settings.maxSamples()
              + ")");
    }
    checkCancelled();
    return series;
  }

  void checkCancelled() {
    if (settings.cancelled().getAsBoolean()) {
      throw PromQlException.timeout("query timed out in query execution");
    }
  }
}
