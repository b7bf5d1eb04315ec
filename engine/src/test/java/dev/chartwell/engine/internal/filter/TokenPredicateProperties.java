package dev.chartwell.engine.internal.filter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import dev.chartwell.parser.Tokens;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

/**
 * The bare term's predicate, which scans a text for the token instead of splitting it (it answers
 * for a head's newest rows, which have no token index yet), against the tokenizer's own definition:
 * {@code Tokens.lowerCaseTokens(v).contains(token)}.
 */
class TokenPredicateProperties {
  /** Letters of both cases, digits, separators and a non-ASCII letter, so that tokens meet. */
  private static final String ALPHABET = "aAbBtT09 -_.:/é";

  private static Gen<String> texts(int maxLength) {
    return lists()
        .of(integers().between(0, ALPHABET.length() - 1))
        .ofSizeBetween(0, maxLength)
        .map(
            codes -> {
              StringBuilder b = new StringBuilder();
              for (int c : codes) {
                b.append(ALPHABET.charAt(c));
              }
              return b.toString();
            });
  }

  @Test
  void matchesExactlyTheTextsWhoseTokensHoldIt() {
    qt().withExamples(5_000)
        .forAll(texts(24), texts(4))
        .checkAssert(
            (text, term) -> {
              List<String> tokens = Tokens.lowerCaseTokens(term);
              // the compiler hands over one lower-case token; anything else must match nothing
              String token = tokens.size() == 1 ? tokens.get(0) : term;
              assertEquals(
                  Tokens.lowerCaseTokens(text).contains(token),
                  Predicates.token(token).onString(text),
                  "token '" + token + "' in '" + text + "'");
            });
  }

  @Test
  void tokensThatCannotBeInAnyTextMatchNothing() {
    for (String token : List.of("", "Error", "a b", "é")) {
      assertFalse(Predicates.token(token).onString("error a b é Error"), token);
    }
  }
}
