package dev.chartwell.prometheus.promql;

import dev.chartwell.prometheus.LabelMatcher;
import java.util.List;
import org.antlr.v4.runtime.BaseErrorListener;
import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.CommonTokenStream;
import org.antlr.v4.runtime.RecognitionException;
import org.antlr.v4.runtime.Recognizer;
import org.antlr.v4.runtime.Token;

/** The PromQL parser: query text to an immutable {@link Expr} tree. */
public final class PromQl {
  private PromQl() {}

  /**
   * Parses a PromQL query and checks its types.
   *
   * @param query the query text
   * @return the expression tree
   * @throws PromQlException of kind {@link PromQlException.Kind#BAD_DATA} naming the construct and
   *     its position when the query is malformed or uses a construct Chartwell does not evaluate
   */
  public static Expr parse(String query) {
    if (query.isBlank()) {
      throw PromQlException.badData(0, "no expression found in input");
    }
    PromQLLexer lexer = new PromQLLexer(CharStreams.fromString(query));
    Errors errors = new Errors(query);
    lexer.removeErrorListeners();
    lexer.addErrorListener(errors);
    PromQLParser parser = new PromQLParser(new CommonTokenStream(lexer));
    parser.removeErrorListeners();
    parser.addErrorListener(errors);
    return new AstBuilder().visit(parser.query());
  }

  /**
   * Parses a series selector such as {@code up{job="api"}} (the {@code match[]} parameter).
   *
   * @param selector the selector text
   * @return its matchers, the metric name's {@code __name__} matcher included
   * @throws PromQlException when the text is not a plain selector (no offset, {@code @} or range)
   */
  public static List<LabelMatcher> parseSelector(String selector) {
    Expr e = parse(selector);
    if (e instanceof Expr.VectorSelector vs && vs.offsetMs() == 0 && vs.at() == null) {
      return vs.matchers();
    }
    throw PromQlException.badData(0, "not a series selector: " + selector);
  }

  /** Syntax errors as {@link PromQlException}, with the offset of the offending character. */
  private static final class Errors extends BaseErrorListener {
    private final String query;

    Errors(String query) {
      this.query = query;
    }

    @Override
    public void syntaxError(
        Recognizer<?, ?> recognizer,
        Object offendingSymbol,
        int line,
        int charPositionInLine,
        String msg,
        RecognitionException e) {
      int pos;
      if (offendingSymbol instanceof Token t && t.getStartIndex() >= 0) {
        pos = t.getStartIndex();
      } else {
        pos = 0;
        for (int l = 1; l < line; l++) {
          pos = query.indexOf('\n', pos) + 1;
        }
        pos += charPositionInLine;
      }
      throw PromQlException.badData(pos, "syntax error: " + msg);
    }
  }
}
