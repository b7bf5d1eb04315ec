package dev.chartwell.parser;

import java.util.Map;
import org.antlr.v4.runtime.BailErrorStrategy;
import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.CommonTokenStream;
import org.antlr.v4.runtime.DefaultErrorStrategy;
import org.antlr.v4.runtime.Lexer;
import org.antlr.v4.runtime.Parser;
import org.antlr.v4.runtime.atn.PredictionMode;
import org.antlr.v4.runtime.misc.ParseCancellationException;

/**
 * Parses {@code where} clauses into {@link Expr} trees. Stateless and thread-safe.
 *
 * <p>Parsing first runs ANTLR's fast SLL prediction and bails out at the first problem; only then
 * is the input parsed again in full LL mode, which either succeeds (the rare inputs SLL cannot
 * decide) or reports the error with its exact position. ANTLR's console error output is never used.
 */
public final class WhereParser {
  private static final ThrowingErrorListener LUCENE_ERRORS =
      new ThrowingErrorListener(
          Map.of(
              LuceneLexer.CARET, "boost '^' is not supported",
              LuceneLexer.TILDE, "fuzzy and proximity searches ('~') are not supported",
              LuceneLexer.UNTERMINATED_QUOTE, "unterminated quoted phrase"));
  private static final ThrowingErrorListener SQL_ERRORS =
      new ThrowingErrorListener(Map.of(SqlWhereLexer.UNTERMINATED_STRING, "unterminated string"));

  private WhereParser() {}

  /**
   * Parses a clause in the default (Lucene) language.
   *
   * @param text the clause; empty or blank matches everything
   * @return its meaning
   * @throws WhereSyntaxException naming what is wrong, with line and column
   */
  public static Expr parse(String text) {
    return parse(text, WhereLanguage.LUCENE);
  }

  /**
   * @param text the clause; {@code null}, empty or blank matches everything
   * @param language the language it is written in
   * @return its meaning
   * @throws WhereSyntaxException naming what is wrong, with line and column
   */
  public static Expr parse(String text, WhereLanguage language) {
    if (text == null || text.isBlank()) {
      return new Expr.MatchAll();
    }
    return switch (language) {
      case LUCENE -> parseLucene(text);
      case SQL -> parseSql(text);
    };
  }

  private static Expr parseLucene(String text) {
    LuceneLexer lexer = new LuceneLexer(CharStreams.fromString(text));
    CommonTokenStream tokens = tokens(lexer, LUCENE_ERRORS);
    LuceneParser parser = new LuceneParser(tokens);
    try {
      fast(parser);
      return LuceneAstBuilder.build(parser.query());
    } catch (ParseCancellationException e) {
      tokens.seek(0);
      careful(parser, LUCENE_ERRORS);
      return LuceneAstBuilder.build(parser.query());
    }
  }

  private static Expr parseSql(String text) {
    SqlWhereLexer lexer = new SqlWhereLexer(CharStreams.fromString(text));
    CommonTokenStream tokens = tokens(lexer, SQL_ERRORS);
    SqlWhereParser parser = new SqlWhereParser(tokens);
    try {
      fast(parser);
      return SqlAstBuilder.build(parser.where());
    } catch (ParseCancellationException e) {
      tokens.seek(0);
      careful(parser, SQL_ERRORS);
      return SqlAstBuilder.build(parser.where());
    }
  }

  private static CommonTokenStream tokens(Lexer lexer, ThrowingErrorListener errors) {
    lexer.removeErrorListeners();
    lexer.addErrorListener(errors);
    return new CommonTokenStream(lexer);
  }

  private static void fast(Parser parser) {
    parser.removeErrorListeners();
    parser.setErrorHandler(new BailErrorStrategy());
    parser.getInterpreter().setPredictionMode(PredictionMode.SLL);
  }

  private static void careful(Parser parser, ThrowingErrorListener errors) {
    parser.reset();
    parser.addErrorListener(errors);
    parser.setErrorHandler(new DefaultErrorStrategy());
    parser.getInterpreter().setPredictionMode(PredictionMode.LL);
  }
}
