package dev.chartwell.prometheus.promql;

import dev.chartwell.prometheus.Labels;
import dev.chartwell.prometheus.SeriesData;
import dev.chartwell.prometheus.SeriesSource;
import dev.chartwell.prometheus.promql.Expr.Aggregate;
import dev.chartwell.prometheus.promql.Expr.Binary;
import dev.chartwell.prometheus.promql.Expr.Call;
import dev.chartwell.prometheus.promql.Expr.MatrixSelector;
import dev.chartwell.prometheus.promql.Expr.NumberLiteral;
import dev.chartwell.prometheus.promql.Expr.Paren;
import dev.chartwell.prometheus.promql.Expr.StringLiteral;
import dev.chartwell.prometheus.promql.Expr.Unary;
import dev.chartwell.prometheus.promql.Expr.VectorSelector;
import dev.chartwell.prometheus.promql.QueryResult.Sample;
import dev.chartwell.prometheus.promql.Val.Row;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * Evaluates PromQL expression trees over a {@link SeriesSource}, with Prometheus 2.42's semantics:
 * the lookback delta and staleness markers for instant selectors, closed {@code [t - range, t]}
 * windows for range selectors, {@code offset} and {@code @}, and Prometheus' extrapolation for
 * {@code rate}, {@code increase} and {@code delta}.
 *
 * <p>A range query is evaluated for all its steps at once: each selector loads its series once for
 * the whole range, and every series is walked once with a window sliding over the steps. Instances
 * are immutable and may be shared between threads.
 */
public final class Evaluator {
  private final SeriesSource source;
  private final EvalSettings settings;

  /**
   * An evaluator.
   *
   * @param source where series are read
   * @param settings lookback delta, sample limit and cancellation check
   */
  public Evaluator(SeriesSource source, EvalSettings settings) {
    this.source = Objects.requireNonNull(source, "source");
    this.settings = Objects.requireNonNull(settings, "settings");
  }

  /**
   * Evaluates an expression at one time ({@code /api/v1/query}).
   *
   * @param expr the expression
   * @param timeMs the evaluation time in milliseconds since the epoch
   * @return a scalar, string, vector, or (for a range vector selector) a matrix
   * @throws PromQlException on an evaluation error, too many samples or cancellation
   */
  public QueryResult instant(Expr expr, long timeMs) {
    Steps steps = new Steps(source, settings, timeMs, timeMs, 1);
    Expr e = AstBuilder.unwrap(expr);
    if (e instanceof MatrixSelector ms) {
      return new QueryResult.Matrix(Selectors.matrix(ms, steps), List.of());
    }
    Val v = eval(expr, steps);
    if (v instanceof Val.Scalar s) {
      return new QueryResult.Scalar(timeMs, s.v()[0], List.of());
    }
    if (v instanceof Val.Str s) {
      return new QueryResult.StringValue(timeMs, s.s(), List.of());
    }
    Val.Vec vec = (Val.Vec) v;
    List<Sample> samples = new ArrayList<>();
    for (Row r : vec.rows()) {
      if (!Val.absent(r.v()[0])) {
        samples.add(new Sample(r.labels(), timeMs, r.v()[0]));
      }
    }
    if (vec.order() == 0) {
      samples.sort(Comparator.comparing(Sample::labels));
    } else {
      int sign = vec.order();
      samples.sort(
          (a, b) -> {
            // NaN first, as Prometheus' sort and sort_desc place it.
            if (Double.isNaN(a.value()) || Double.isNaN(b.value())) {
              return Boolean.compare(Double.isNaN(b.value()), Double.isNaN(a.value()));
            }
            return sign * Double.compare(a.value(), b.value());
          });
    }
    return new QueryResult.Vector(samples, List.of());
  }

  /**
   * Evaluates an expression at {@code start}, {@code start + step}, ... up to {@code end} ({@code
   * /api/v1/query_range}).
   *
   * @param expr a scalar or instant-vector expression
   * @param startMs the first evaluation time
   * @param endMs the last evaluation time (not before {@code startMs})
   * @param stepMs the step, positive
   * @return a matrix sorted by labels (one series with empty labels for a scalar expression)
   * @throws PromQlException on a wrong expression type, an evaluation error, too many samples or
   *     cancellation
   */
  public QueryResult range(Expr expr, long startMs, long endMs, long stepMs) {
    if (stepMs <= 0) {
      throw PromQlException.badData(
          0, "zero or negative query resolution step widths are not accepted");
    }
    if (endMs < startMs) {
      throw PromQlException.badData(0, "end timestamp must not be before start time");
    }
    if (expr.type() != ValueType.SCALAR && expr.type() != ValueType.VECTOR) {
      throw PromQlException.badData(
          0,
          "invalid expression type \""
              + (expr.type() == ValueType.MATRIX ? "range vector" : "string")
              + "\" for range query, must be Scalar or instant Vector");
    }
    Steps steps = new Steps(source, settings, startMs, endMs, stepMs);
    Val v = eval(expr, steps);
    List<Row> rows =
        v instanceof Val.Scalar s ? List.of(new Row(Labels.EMPTY, s.v())) : ((Val.Vec) v).rows();
    List<SeriesData> out = new ArrayList<>();
    for (Row r : rows) {
      int count = 0;
      for (double x : r.v()) {
        if (!Val.absent(x)) {
          count++;
        }
      }
      if (count == 0) {
        continue;
      }
      long[] ts = new long[count];
      double[] vals = new double[count];
      int k = 0;
      for (int i = 0; i < steps.n; i++) {
        if (!Val.absent(r.v()[i])) {
          ts[k] = steps.time(i);
          vals[k++] = r.v()[i];
        }
      }
      out.add(new SeriesData(r.labels(), ts, vals));
    }
    out.sort(Comparator.comparing(SeriesData::labels));
    return new QueryResult.Matrix(out, List.of());
  }

  private Val eval(Expr e, Steps steps) {
    steps.checkCancelled();
    if (e instanceof NumberLiteral n) {
      double[] v = new double[steps.n];
      Arrays.fill(v, n.value());
      return new Val.Scalar(v);
    }
    if (e instanceof StringLiteral s) {
      return new Val.Str(s.value());
    }
    if (e instanceof Paren p) {
      return eval(p.expr(), steps);
    }
    if (e instanceof VectorSelector vs) {
      return Selectors.instant(vs, steps, false);
    }
    if (e instanceof Unary u) {
      Val v = eval(u.expr(), steps);
      if (v instanceof Val.Scalar s) {
        double[] out = s.v().clone();
        for (int i = 0; i < out.length; i++) {
          out[i] = -out[i];
        }
        return new Val.Scalar(out);
      }
      return InstantFunctions.map((Val.Vec) v, x -> -x);
    }
    if (e instanceof Binary b) {
      return binary(b, steps);
    }
    if (e instanceof Aggregate a) {
      Val param = a.param() == null ? null : eval(a.param(), steps);
      return Aggregations.eval(a, (Val.Vec) eval(a.expr(), steps), param, steps);
    }
    if (e instanceof Call c) {
      return call(c, steps);
    }
    throw PromQlException.execution("a range vector cannot be evaluated here: " + e);
  }

  private Val binary(Binary b, Steps steps) {
    Val l = eval(b.lhs(), steps);
    Val r = eval(b.rhs(), steps);
    if (l instanceof Val.Scalar ls && r instanceof Val.Scalar rs) {
      return BinaryOps.scalars(b.op(), ls.v(), rs.v());
    }
    if (l instanceof Val.Scalar ls) {
      return BinaryOps.vectorScalar(b.op(), b.returnBool(), (Val.Vec) r, ls.v(), true);
    }
    if (r instanceof Val.Scalar rs) {
      return BinaryOps.vectorScalar(b.op(), b.returnBool(), (Val.Vec) l, rs.v(), false);
    }
    if (b.op().isSetOperator()) {
      return BinaryOps.set(b.op(), b.matching(), (Val.Vec) l, (Val.Vec) r, steps.n);
    }
    return BinaryOps.vectors(
        b.op(), b.returnBool(), b.matching(), (Val.Vec) l, (Val.Vec) r, steps.n);
  }

  private double[] scalarArg(Call c, int i, Steps steps) {
    return ((Val.Scalar) eval(c.args().get(i), steps)).v();
  }

  private String stringArg(Call c, int i, Steps steps) {
    return ((Val.Str) eval(c.args().get(i), steps)).s();
  }

  private Val.Vec vectorArg(Call c, int i, Steps steps) {
    return (Val.Vec) eval(c.args().get(i), steps);
  }

  private Val call(Call c, Steps steps) {
    Function f = c.function();
    int n = steps.n;
    if (f.argTypes().contains(ValueType.MATRIX)) {
      int mi = f.argTypes().indexOf(ValueType.MATRIX);
      MatrixSelector ms = (MatrixSelector) AstBuilder.unwrap(c.args().get(mi));
      if (f == Function.ABSENT_OVER_TIME) {
        boolean[] any = Selectors.anyInWindow(ms, steps);
        return InstantFunctions.absent(any, ms, n);
      }
      double[] q = f == Function.QUANTILE_OVER_TIME ? scalarArg(c, 0, steps) : null;
      return RangeFunctions.eval(f, ms, q, steps);
    }
    return switch (f) {
      case ABS -> InstantFunctions.map(vectorArg(c, 0, steps), Math::abs);
      case CEIL -> InstantFunctions.map(vectorArg(c, 0, steps), Math::ceil);
      case FLOOR -> InstantFunctions.map(vectorArg(c, 0, steps), Math::floor);
      case EXP -> InstantFunctions.map(vectorArg(c, 0, steps), Math::exp);
      case LN -> InstantFunctions.map(vectorArg(c, 0, steps), Math::log);
      case LOG2 -> InstantFunctions.map(vectorArg(c, 0, steps), x -> Math.log(x) / Math.log(2));
      case LOG10 -> InstantFunctions.map(vectorArg(c, 0, steps), Math::log10);
      case SQRT -> InstantFunctions.map(vectorArg(c, 0, steps), Math::sqrt);
      case SGN -> InstantFunctions.map(vectorArg(c, 0, steps), InstantFunctions::sgn);
      case ROUND -> {
        double[] to = c.args().size() > 1 ? scalarArg(c, 1, steps) : filled(n, 1);
        yield InstantFunctions.map2(
            vectorArg(c, 0, steps), to, null, (v, a, b) -> InstantFunctions.round(v, a));
      }
      case CLAMP_MIN ->
          InstantFunctions.map2(
              vectorArg(c, 0, steps), scalarArg(c, 1, steps), null, (v, a, b) -> Math.max(a, v));
      case CLAMP_MAX ->
          InstantFunctions.map2(
              vectorArg(c, 0, steps), scalarArg(c, 1, steps), null, (v, a, b) -> Math.min(a, v));
      case CLAMP ->
          // No value at a step whose minimum is above its maximum, as Prometheus answers.
          InstantFunctions.map2(
              vectorArg(c, 0, steps),
              scalarArg(c, 1, steps),
              scalarArg(c, 2, steps),
              (v, a, b) -> a > b ? Val.ABSENT : Math.max(a, Math.min(b, v)));
      case TIMESTAMP -> {
        Expr arg = AstBuilder.unwrap(c.args().get(0));
        if (arg instanceof VectorSelector vs) {
          yield InstantFunctions.map(Selectors.instant(vs, steps, true), x -> x);
        }
        Val.Vec in = vectorArg(c, 0, steps);
        yield InstantFunctions.map2(in, times(steps), null, (v, a, b) -> a);
      }
      case VECTOR_FN -> new Val.Vec(List.of(new Row(Labels.EMPTY, scalarArg(c, 0, steps).clone())));
      case SCALAR_FN -> InstantFunctions.scalar(vectorArg(c, 0, steps), n);
      case TIME -> new Val.Scalar(times(steps));
      case LABEL_REPLACE ->
          InstantFunctions.labelReplace(
              vectorArg(c, 0, steps),
              stringArg(c, 1, steps),
              stringArg(c, 2, steps),
              stringArg(c, 3, steps),
              stringArg(c, 4, steps));
      case LABEL_JOIN -> {
        List<String> src = new ArrayList<>();
        for (int i = 3; i < c.args().size(); i++) {
          src.add(stringArg(c, i, steps));
        }
        yield InstantFunctions.labelJoin(
            vectorArg(c, 0, steps), stringArg(c, 1, steps), stringArg(c, 2, steps), src);
      }
      case SORT -> new Val.Vec(vectorArg(c, 0, steps).rows(), 1);
      case SORT_DESC -> new Val.Vec(vectorArg(c, 0, steps).rows(), -1);
      case ABSENT ->
          InstantFunctions.absent(
              InstantFunctions.present(vectorArg(c, 0, steps), n), c.args().get(0), n);
      case HISTOGRAM_QUANTILE ->
          HistogramQuantile.eval(scalarArg(c, 0, steps), vectorArg(c, 1, steps), steps);
      default -> throw new IllegalStateException("function not dispatched: " + f);
    };
  }

  private static double[] filled(int n, double v) {
    double[] a = new double[n];
    Arrays.fill(a, v);
    return a;
  }

  private static double[] times(Steps steps) {
    double[] t = new double[steps.n];
    for (int i = 0; i < steps.n; i++) {
      t[i] = steps.time(i) / 1000.0;
    }
    return t;
  }
}
