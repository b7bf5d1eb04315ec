package dev.chartwell.prometheus.promql;

import dev.chartwell.prometheus.LabelMatcher;
import dev.chartwell.prometheus.SeriesData;
import dev.chartwell.prometheus.SeriesSource;
import dev.chartwell.prometheus.promql.Expr.At;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

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

  /**
   * Loads a selector's series for the reference times of all steps, back by {@code back} ms. The
   * series are taken from the source's list one at a time as the caller iterates (once), so that a
   * source may make each only when it is asked for; the samples of all count against the limit.
   */
  Iterable<SeriesData> load(Expr.VectorSelector vs, long back) {
    long first = refTime(vs, 0);
    long last = refTime(vs, n - 1);
    List<LabelMatcher> matchers = vs.matchers();
    List<SeriesData> series =
        source.select(matchers, Math.min(first, last) - back, Math.max(first, last));
    checkCancelled();
    return () ->
        new Iterator<>() {
          private int next;

          @Override
          public boolean hasNext() {
            return next < series.size();
          }

          @Override
          public SeriesData next() {
            if (!hasNext()) {
              throw new NoSuchElementException();
            }
            SeriesData s = series.get(next++);
            samplesLoaded += s.size();
            if (samplesLoaded > settings.maxSamples()) {
              throw PromQlException.execution(
                  "query processing would load too many samples into memory in query execution"
                      + " (limit "
                      + settings.maxSamples()
                      + ")");
            }
            return s;
          }
        };
  }

  void checkCancelled() {
    if (settings.cancelled().getAsBoolean()) {
      throw PromQlException.timeout("query timed out in query execution");
    }
  }
}
