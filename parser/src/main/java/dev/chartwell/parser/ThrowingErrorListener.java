package dev.chartwell.parser;

import java.util.Map;
import org.antlr.v4.runtime.BaseErrorListener;
import org.antlr.v4.runtime.CharStream;
import org.antlr.v4.runtime.Lexer;
import org.antlr.v4.runtime.RecognitionException;
import org.antlr.v4.runtime.Recognizer;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.misc.Interval;

/**
 * Replaces ANTLR's console listener: the first syntax error becomes a {@link WhereSyntaxException}
 * with a message written for people (no token type names), and parsing stops there.
 */
final class ThrowingErrorListener extends BaseErrorListener {
  private final Map<Integer, String> specialTokens;

  /**
   * @param specialTokens messages for token types that are errors in themselves (boost, fuzzy,
   *     unterminated strings)
   */
  ThrowingErrorListener(Map<Integer, String> specialTokens) {
    this.specialTokens = specialTokens;
  }

  @Override
  public void syntaxError(
      Recognizer<?, ?> recognizer,
      Object offendingSymbol,
      int line,
      int charPositionInLine,
      String msg,
      RecognitionException e) {
    int column = charPositionInLine + 1;
    if (recognizer instanceof Lexer lexer) {
      CharStream input = lexer.getInputStream();
      int start = lexer._tokenStartCharIndex;
      String offending = input.getText(Interval.of(start, Math.max(start, input.index())));
      throw new WhereSyntaxException(lexerReason(offending), line, column);
    }
    Token token = (Token) offendingSymbol;
    String reason = specialTokens.get(token.getType());
    if (reason == null) {
      reason =
          token.getType() == Token.EOF
              ? "unexpected end of input"
              : "unexpected '" + token.getText() + "'";
    }
    throw new WhereSyntaxException(reason, line, column);
  }

  private static String lexerReason(String offending) {
    if (offending.startsWith("\\")) {
      return "'\\' at the end of the input escapes nothing";
    }
    return offending.isEmpty()
        ? "unexpected end of input"
        : "unexpected character '" + offending.substring(0, 1) + "'";
  }
}
