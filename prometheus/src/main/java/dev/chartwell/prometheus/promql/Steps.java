package dev.chartwell.prometheus.promql;

import dev.chartwell.prometheus.LabelMatcher;
import dev.chartwell.prometheus.SeriesData;
import dev.chartwell.prometheus.SeriesSource;
import dev.chartwell.prometheus.promql.Expr.At;
import java.util.AbstractList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/** The evaluation times of one query and what every part of its evaluation shares. */
final class Steps {
  final long start;
  final long end;
  final long step;
  final int n;
  final EvalSettings settings;
  private final SeriesSource source;
  private final AtomicLong samplesLoaded = new AtomicLong();

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

  /**
   * Loads a selector's series for the reference times of all steps, back by {@code back} ms. Each
   * series is taken from the source's list only when asked for, so that a source may make each one
   * then; every series asked for counts against the sample limit (ask each once; several threads
   * may ask).
   */
  List<SeriesData> load(Expr.VectorSelector vs, long back) {
    long first = refTime(vs, 0);
    long last = refTime(vs, n - 1);
    List<LabelMatcher> matchers = vs.matchers();
    List<SeriesData> series =
        source.select(matchers, Math.min(first, last) - back, Math.max(first, last));
    checkCancelled();
    return new AbstractList<>() {
      @Override
      public SeriesData get(int i) {
        SeriesData s = series.get(i);
        if (samplesLoaded.addAndGet(s.size()) > settings.maxSamples()) {
          throw PromQlException.execution(
              "query processing would load too many samples into memory in query execution"
                  + " (limit "
                  + settings.maxSamples()
                  + ")");
        }
        return s;
      }

      @Override
      public int size() {
        return series.size();
      }
    };
  }

  void checkCancelled() {
    if (settings.cancelled().getAsBoolean()) {
      throw PromQlException.timeout("query timed out in query execution");
    }
  }
}
