package dev.chartwell.parser;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.chartwell.parser.Expr.CompareOp;
import dev.chartwell.parser.Expr.Fold;
import dev.chartwell.parser.Expr.Operand;
import java.util.Locale;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** parse(print(e)) == e for random trees of each language. */
class RoundTripProperties {
  private static final String TEXT_CHARS = "aZ09 -_:*\"'\\%()[]{}^~<>=&|+!?/.,é\t";

  @Property
  void luceneRoundTrip(@ForAll("luceneTrees") Expr e) {
    String text = WherePrinter.print(e, WhereLanguage.LUCENE);
    assertEquals(e, WhereParser.parse(text, WhereLanguage.LUCENE), text);
  }

  @Property
  void sqlRoundTrip(@ForAll("sqlTrees") Expr e) {
    String text = WherePrinter.print(e, WhereLanguage.SQL);
    assertEquals(e, WhereParser.parse(text, WhereLanguage.SQL), text);
  }

  @Provide
  Arbitrary<Expr> luceneTrees() {
    return Arbitraries.recursive(this::luceneLeaf, RoundTripProperties::compose, 0, 4);
  }

  @Provide
  Arbitrary<Expr> sqlTrees() {
    return Arbitraries.recursive(this::sqlLeaf, RoundTripProperties::compose, 0, 4);
  }

  private static Arbitrary<Expr> compose(Arbitrary<Expr> child) {
    return Arbitraries.oneOf(
        child.list().ofMinSize(2).ofMaxSize(4).map(Expr::and),
        child.list().ofMinSize(2).ofMaxSize(4).map(Expr::or),
        child.map(Expr.Not::new));
  }

  private Arbitrary<Expr> luceneLeaf() {
    Arbitrary<String> field = fields();
    Arbitrary<String> value = text();
    return Arbitraries.oneOf(
        tokenText().map(t -> new Expr.Token(t.toLowerCase(Locale.ROOT))),
        value
            .map(v -> v.toLowerCase(Locale.ROOT))
            .filter(v -> !Tokens.isSingleToken(v))
            .map(Expr.Phrase::new),
        wildcardPattern()
            .map(p -> p.toLowerCase(Locale.ROOT))
            .filter(p -> !p.equals("%"))
            .map(Expr.TokenPattern::new),
        Combinators.combine(field, value.filter(v -> !v.isEmpty())).as(Expr.Match::new),
        Combinators.combine(field, Arbitraries.of(CompareOp.class), value)
            .as((f, op, v) -> new Expr.Compare(Operand.of(f), op, v)),
        Combinators.combine(
                field, value, Arbitraries.of(true, false), value, Arbitraries.of(true, false))
            .as((f, lo, li, hi, hin) -> new Expr.Range(Operand.of(f), lo, li, hi, hin)),
        Combinators.combine(field, wildcardPattern().filter(p -> !p.equals("%")))
            .as((f, p) -> new Expr.Like(Operand.of(f), p, true)),
        field.map(Expr.Exists::new),
        field.map(f -> new Expr.Not(new Expr.IsNull(f))));
  }

  private Arbitrary<Expr> sqlLeaf() {
    Arbitrary<String> field = fields();
    Arbitrary<Operand> operand =
        Combinators.combine(field, Arbitraries.of(Fold.class)).as(Operand::new);
    Arbitrary<String> value = Arbitraries.oneOf(text(), numbers());
    return Arbitraries.oneOf(
        Combinators.combine(operand, Arbitraries.of(CompareOp.class), value).as(Expr.Compare::new),
        Combinators.combine(operand, value, value)
            .as((o, lo, hi) -> new Expr.Range(o, lo, true, hi, true)),
        Combinators.combine(operand, value.list().ofMinSize(1).ofMaxSize(3)).as(Expr.In::new),
        Combinators.combine(operand, text(), Arbitraries.of(true, false)).as(Expr.Like::new),
        field.map(Expr.IsNull::new),
        Combinators.combine(field, tokenText()).as(Expr.HasToken::new),
        Combinators.combine(field, text(), Arbitraries.of(true, false)).as(Expr.Contains::new));
  }

  private static Arbitrary<String> fields() {
    return Arbitraries.oneOf(
        Arbitraries.of(
            "level",
            "SeverityText",
            "LogAttributes.http.method",
            "a.b.c",
            "Service Name",
            "x-y",
            "AND",
            "not",
            "we`ird",
            "quo\"te",
            "*star",
            "_u"),
        Arbitraries.strings().withChars(TEXT_CHARS).ofMinLength(1).ofMaxLength(6));
  }

  private static Arbitrary<String> text() {
    return Arbitraries.strings().withChars(TEXT_CHARS).ofMinLength(0).ofMaxLength(10);
  }

  private static Arbitrary<String> tokenText() {
    return Arbitraries.strings()
        .withCharRange('a', 'z')
        .withCharRange('0', '9')
        .ofMinLength(1)
        .ofMaxLength(8);
  }

  private static Arbitrary<String> numbers() {
    return Arbitraries.oneOf(
        Arbitraries.integers().map(String::valueOf),
        Arbitraries.doubles()
            .map(String::valueOf)
            .filter(s -> !s.contains("Infinity") && !s.contains("NaN")));
  }

  /** A LIKE pattern with at least one '%': literal runs (escaped as needed) around wildcards. */
  private static Arbitrary<String> wildcardPattern() {
    Arbitrary<String> literal =
        Arbitraries.strings()
            .withChars("ab1 -_%\\é:*")
            .ofMinLength(0)
            .ofMaxLength(4)
            .map(RoundTripProperties::escapeLike);
    return literal.list().ofMinSize(2).ofMaxSize(4).map(parts -> String.join("%", parts));
  }

  private static String escapeLike(String s) {
    StringBuilder sb = new StringBuilder();
    for (char c : s.toCharArray()) {
      if (c == '%' || c == '_' || c == '\\') {
        sb.append('\\');
      }
      sb.append(c);
    }
    return sb.toString();
  }

  @Property(tries = 200)
  void sqlTreesThatLuceneCanSayRoundTripInLucene(@ForAll("sqlTrees") Expr e) {
    // Most SQL trees hold SQL-only nodes and cannot be printed as Lucene; those that can must not
    // print as text that parses to something else.
    if (WherePrinter.canPrint(e, WhereLanguage.LUCENE)) {
      String text = WherePrinter.print(e, WhereLanguage.LUCENE);
      assertEquals(e, WhereParser.parse(text, WhereLanguage.LUCENE), text);
    }
  }
}
