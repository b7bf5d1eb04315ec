package dev.chartwell.bench;

import dev.chartwell.parser.Expr;
import dev.chartwell.parser.WhereLanguage;
import dev.chartwell.parser.WhereParser;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/** Time to parse a typical five-clause {@code where} into an {@link Expr}, in each language. */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ParserBenchmark {
  static final String LUCENE =
      "SeverityText:error AND ServiceName:\"svc-3\" AND status:>=500 AND -host:web*"
          + " AND (timeout OR \"connection reset\")";
  static final String SQL =
      "SeverityText = 'error' AND ServiceName IN ('svc-3', 'svc-4') AND status >= 500"
          + " AND host NOT LIKE 'web%' AND hasToken(Body, 'timeout')";

  /** Checks once that both clauses parse to five conjuncts, so the benchmark measures real work. */
  @Setup
  public void check() {
    for (Expr e :
        new Expr[] {
          WhereParser.parse(LUCENE, WhereLanguage.LUCENE), WhereParser.parse(SQL, WhereLanguage.SQL)
        }) {
      if (!(e instanceof Expr.And and) || and.operands().size() != 5) {
        throw new IllegalStateException("benchmark clause did not parse as 5 clauses: " + e);
      }
    }
  }

  /**
   * @return the parsed Lucene clause
   */
  @Benchmark
  public Expr lucene() {
    return WhereParser.parse(LUCENE, WhereLanguage.LUCENE);
  }

  /**
   * @return the parsed SQL clause
   */
  @Benchmark
  public Expr sql() {
    return WhereParser.parse(SQL, WhereLanguage.SQL);
  }
}
