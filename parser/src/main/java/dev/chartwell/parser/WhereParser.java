package dev.chartwell.parser;

import java.util.Map;
import org.antlr.v4.runtime.BailErrorStrategy;
import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.CommonTokenStream;
import org.antlr.v4.runtime.DefaultErrorStrategy;
import org.antlr.v4.runtime.Lexer;
import org.antlr.v4.runtime.Parser;
import org.antlr.v4.runtime.Token;
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

  /** The longest where text accepted, in characters. */
  public static final int MAX_LENGTH = 65_536;

  /** The deepest nesting accepted: open parentheses plus a run of prefix operators. */
  public static final int MAX_DEPTH = 256;

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
    if (text.length() > MAX_LENGTH) {
      throw new WhereSyntaxException(
          "the where is longer than " + MAX_LENGTH + " characters", 1, MAX_LENGTH + 1);
    }
    return switch (language) {
      case LUCENE -> parseLucene(text);
      case SQL -> parseSql(text);
    };
  }

  private static Expr parseLucene(String text) {
    LuceneLexer lexer = new LuceneLexer(CharStreams.fromString(text));
    CommonTokenStream tokens = tokens(lexer, LUCENE_ERRORS);
    checkDepth(
        tokens,
        LuceneLexer.LPAREN,
        LuceneLexer.RPAREN,
        LuceneLexer.NOT,
        LuceneLexer.MINUS,
        LuceneLexer.PLUS);
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
    checkDepth(tokens, SqlWhereLexer.LPAREN, SqlWhereLexer.RPAREN, SqlWhereLexer.NOT);
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

  /**
   * Refuses nesting the parser would need more than {@link #MAX_DEPTH} levels of recursion for:
   * open parentheses plus a run of prefix operators ({@code NOT}, and Lucene's {@code -} and {@code
   * +}). The lexer is a loop, so this runs on its tokens before the recursive parser sees them.
   */
  private static void checkDepth(CommonTokenStream tokens, int open, int close, int... prefix) {
    tokens.fill();
    int parens = 0;
    int run = 0;
    for (Token t : tokens.getTokens()) {
      int type = t.getType();
      if (type == open) {
        parens++;
        run = 0;
      } else if (type == close) {
        parens = Math.max(0, parens - 1);
        run = 0;
      } else if (isOneOf(type, prefix)) {
        run++;
      } else {
        run = 0;
      }
      if (parens + run > MAX_DEPTH) {
        throw new WhereSyntaxException(
            "nested deeper than " + MAX_DEPTH + " levels (parentheses and NOT)",
            t.getLine(),
            t.getCharPositionInLine() + 1);
      }
    }
  }

  private static boolean isOneOf(int type, int[] types) {
    for (int t : types) {
      if (t == type) {
        return true;
      }
    }
    return false;
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
