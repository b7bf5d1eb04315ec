package dev.chartwell.prometheus.promql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chartwell.prometheus.LabelMatcher;
import dev.chartwell.prometheus.promql.Expr.Binary;
import dev.chartwell.prometheus.promql.Expr.NumberLiteral;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PromQlParseTest {

  @ParameterizedTest
  @ValueSource(
      strings = {
        "up",
        "up{job=\"api\", instance!=\"a\", path=~\"/v[0-9]+\", code!~\"5..\"}",
        "{__name__=\"up\"}",
        "{__name__=~\"node_.*\", job=\"x\"}",
        "http_requests_total offset 5m",
        "http_requests_total offset -1h30m",
        "up @ 1609746000",
        "up @ start()",
        "up @ end() offset 1m",
        "rate(http_requests_total[5m])",
        "rate(http_requests_total{job=\"a\"}[5m] offset 1h)",
        "irate(x[1m])",
        "increase(x[1h])",
        "delta(x[10m])",
        "idelta(x[10m])",
        "deriv(x[10m])",
        "resets(x[10m])",
        "changes(x[10m])",
        "avg_over_time(x[5m])",
        "min_over_time(x[5m])",
        "max_over_time(x[5m])",
        "sum_over_time(x[5m])",
        "count_over_time(x[5m])",
        "last_over_time(x[5m])",
        "quantile_over_time(0.9, x[5m])",
        "stddev_over_time(x[5m])",
        "sum by (job) (rate(x[5m]))",
        "sum without (instance) (x)",
        "avg(x)",
        "min(x)",
        "max(x)",
        "count(x)",
        "stddev(x)",
        "topk(3, x)",
        "bottomk(2, x)",
        "quantile(0.5, x)",
        "count_values(\"value\", x)",
        "group by (job) (x)",
        "a + b",
        "a - b * c",
        "a / b % c",
        "2 ^ 3 ^ 2",
        "a > bool 1",
        "a == b",
        "a != on(job) b",
        "a >= ignoring(instance) b",
        "a * on(job) group_left(team) b",
        "a * ignoring(instance) group_right b",
        "a and b",
        "a or b unless c",
        "a and on(job) b",
        "histogram_quantile(0.9, sum by (le) (rate(x_bucket[5m])))",
        "abs(x)",
        "ceil(x)",
        "floor(x)",
        "round(x)",
        "round(x, 0.5)",
        "clamp_min(x, 0)",
        "clamp_max(x, 10)",
        "exp(x)",
        "ln(x)",
        "log2(x)",
        "log10(x)",
        "sqrt(x)",
        "timestamp(x)",
        "vector(1)",
        "scalar(x)",
        "time()",
        "label_replace(x, \"dst\", \"$1\", \"src\", \"(.*)\")",
        "label_join(x, \"dst\", \",\", \"a\", \"b\")",
        "sort(x)",
        "sort_desc(x)",
        "absent(x{job=\"a\"})",
        "absent_over_time(x[5m])",
        "-x",
        "-(a + b)",
        "(a + b) * c",
        "1e3",
        "0x1f",
        "Inf",
        "-Inf",
        "NaN",
        "\"a string\"",
        "sum(x) by (job)",
        "x[5m]",
        "x[1h] @ 100.5"
      })
  void parsesAndRoundTrips(String query) {
    Expr e = PromQl.parse(query);
    String printed = e.toString();
    assertEquals(e, PromQl.parse(printed), () -> query + " printed as " + printed);
  }

  @Test
  void precedenceFollowsPrometheus() {
    assertEquals(
        BinaryOp.OR, ((Binary) PromQl.parse("a or b and c")).op(), "and binds tighter than or");
    assertEquals(
        BinaryOp.UNLESS,
        ((Binary) PromQl.parse("a unless b > c")).op(),
        "comparisons bind tighter");
    Binary pow = (Binary) PromQl.parse("2 ^ 3 ^ 2");
    assertInstanceOf(NumberLiteral.class, pow.lhs());
    assertInstanceOf(Binary.class, pow.rhs(), "^ is right-associative");
    Binary sub = (Binary) PromQl.parse("a - b - c");
    assertInstanceOf(Binary.class, sub.lhs(), "- is left-associative");
    assertInstanceOf(Expr.Unary.class, PromQl.parse("-a ^ 2"), "^ binds tighter than unary minus");
    assertEquals(
        BinaryOp.MUL, ((Binary) PromQl.parse("-a * b")).op(), "unary minus binds tighter than *");
    assertEquals(new NumberLiteral(-1), PromQl.parse("-1"));
  }

  @Test
  void readsLiterals() {
    assertEquals(1000.0, ((NumberLiteral) PromQl.parse("1e3")).value());
    assertEquals(31.0, ((NumberLiteral) PromQl.parse("0x1f")).value());
    assertEquals(Double.POSITIVE_INFINITY, ((NumberLiteral) PromQl.parse("+Inf")).value());
    assertTrue(Double.isNaN(((NumberLiteral) PromQl.parse("nan")).value()));
    assertEquals("a\n\"b'", ((Expr.StringLiteral) PromQl.parse("\"a\\n\\\"b'\"")).value());
    assertEquals("a\\n", ((Expr.StringLiteral) PromQl.parse("`a\\n`")).value());
    assertEquals("é", ((Expr.StringLiteral) PromQl.parse("'\\u00e9'")).value());
    Expr.MatrixSelector m = (Expr.MatrixSelector) PromQl.parse("x[1h30m] offset 1d");
    assertEquals(5_400_000, m.rangeMs());
    assertEquals(86_400_000, m.selector().offsetMs());
  }

  @Test
  void parsesSelectors() {
    List<LabelMatcher> m = PromQl.parseSelector("up{job=~\"a|b\"}");
    assertEquals(
        List.of(
            new LabelMatcher("__name__", LabelMatcher.Type.EQUAL, "up"),
            new LabelMatcher("job", LabelMatcher.Type.REGEX, "a|b")),
        m);
    assertThrows(PromQlException.class, () -> PromQl.parseSelector("rate(x[5m])"));
  }

  private static PromQlException error(String query) {
    PromQlException e = assertThrows(PromQlException.class, () -> PromQl.parse(query));
    assertEquals(PromQlException.Kind.BAD_DATA, e.kind());
    return e;
  }

  @Test
  void namesUnsupportedConstructsAndTheirPositions() {
    PromQlException e = error("holt_winters(x[5m], 0.5, 0.5)");
    assertEquals("unsupported function holt_winters at position 0", e.getMessage());
    e = error("sum(rate(x[5m:1m]))");
    assertEquals(10, e.position());
    assertTrue(e.getMessage().contains("subquery"), e.getMessage());
    e = error("1 + foo(x)");
    assertEquals(4, e.position());
    assertTrue(e.getMessage().contains("unknown function"), e.getMessage());
  }

  @Test
  void reportsSyntaxAndTypeErrors() {
    assertEquals(8, error("up{a=\"b\"").position());
    assertTrue(error("rate(x)").getMessage().contains("expected type range vector"));
    assertTrue(error("sum(x[5m])").getMessage().contains("range vector"));
    assertTrue(error("1 > 2").getMessage().contains("BOOL"));
    assertTrue(error("a + bool b").getMessage().contains("bool modifier"));
    assertTrue(error("1 and x").getMessage().contains("set operator"));
    assertTrue(error("{a=\"\"}").getMessage().contains("non-empty matcher"));
    assertTrue(error("x{a=~\"(\"}").getMessage().contains("regular expression"));
    assertTrue(error("rate(x[5m]) offset 1m").getMessage().contains("offset"));
    assertTrue(error("x[5m] + 1").getMessage().contains("binary expression"));
    assertTrue(error("a and ignoring(b) group_left c").getMessage().contains("no grouping"));
    assertEquals(8, error("sum(x) +").position(), "the end of the input");
    assertEquals(0, error("").position());
    assertTrue(error("x[5m1h]").getMessage().contains("duration"));
  }
}
