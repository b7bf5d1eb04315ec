package dev.chartwell.parser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Locale;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Malformed clauses: each fails with a message written for people and its exact position. */
class WhereSyntaxErrorTest {

  @ParameterizedTest(name = "[{index}] {0}: {1}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      value = {
        // language | where | line | column | reason
        "lucene | a AND | 1 | 6 | unexpected end of input",
        "lucene | (a OR b | 1 | 8 | unexpected end of input",
        "lucene | a) | 1 | 2 | unexpected ')'",
        "lucene | foo^2 | 1 | 4 | boost '^' is not supported",
        "lucene | foo~ | 1 | 4 | fuzzy and proximity searches ('~') are not supported",
        "lucene | `\"a b\"~3` | 1 | 6 | fuzzy and proximity searches ('~') are not supported",
        "lucene | `level:\"err` | 1 | 7 | unterminated quoted phrase",
        "lucene | status:[1 TO 2 | 1 | 15 | unexpected end of input",
        "lucene | status:[1 2] | 1 | 11 | unexpected '2'",
        "lucene | status:> | 1 | 9 | unexpected end of input",
        "lucene | status:>* | 1 | 9 | '*' is not a value to compare with",
        "lucene | status:[a* TO b] | 1 | 9 | wildcards are not allowed in range or comparison bounds",
        "lucene | fo*o:bar | 1 | 1 | field names cannot contain the wildcard '*'",
        "lucene | a & b | 1 | 3 | unexpected character '&'",
        "lucene | `a \\` | 1 | 3 | '\\' at the end of the input escapes nothing",
        "lucene | `a\nOR` | 2 | 3 | unexpected end of input",
        "lucene | level: | 1 | 7 | unexpected end of input",
        "lucene | :x | 1 | 1 | unexpected ':'",
        "lucene | a OR OR b | 1 | 6 | unexpected 'OR'",
        "sql | level = | 1 | 8 | unexpected end of input",
        "sql | level = 'x | 1 | 9 | unterminated string",
        "sql | level == == 'x' | 1 | 10 | unexpected '=='",
        "sql | (a = 1 | 1 | 7 | unexpected end of input",
        "sql | a = 1 b = 2 | 1 | 7 | unexpected 'b'",
        "sql | level | 1 | 1 | 'level' alone is not a condition; compare it with a value",
        "sql | 1 = 1 | 1 | 1 | a comparison needs a column on one side and a constant on the other",
        "sql | a = b | 1 | 1 | a comparison needs a column on one side and a constant on the other",
        "sql | a IN (b) | 1 | 7 | IN list needs a constant here, not b",
        "sql | a LIKE 5 | 1 | 8 | LIKE needs a quoted pattern",
        "sql | foo(a) = 1 | 1 | 1 | unknown function 'foo'; supported: lower, upper, hasToken, position, positionCaseInsensitive",
        "sql | lower(a, b) = 'x' | 1 | 1 | lower(...) takes 1 argument",
        "sql | hasToken(Body, 'two words') | 1 | 16 | hasToken needs one token of ASCII letters and digits",
        "sql | hasToken('x', 'y') | 1 | 10 | hasToken(...) needs a column as its first argument",
        "sql | position(Body, 'x') = 3 | 1 | 1 | position(...) can only be tested for a match: use > 0 (contains) or = 0 (does not contain)",
        "sql | a = 1 AND | 1 | 10 | unexpected end of input",
        "sql | a ~ 1 | 1 | 3 | unexpected character '~'",
        "sql | 'x' | 1 | 1 | a constant alone is not a condition",
      })
  void reportsWhatAndWhere(String language, String where, int line, int column, String reason) {
    WhereSyntaxException e =
        assertThrows(
            WhereSyntaxException.class,
            () ->
                WhereParser.parse(where, WhereLanguage.valueOf(language.toUpperCase(Locale.ROOT))));
    assertEquals(reason, e.reason(), e.getMessage());
    assertEquals(line, e.line(), e.getMessage());
    assertEquals(column, e.column(), e.getMessage());
    assertEquals("line " + line + ", column " + column + ": " + reason, e.getMessage());
  }
}
