package dev.chartwell.parser;

import static dev.chartwell.parser.Ast.all;
import static dev.chartwell.parser.Ast.and;
import static dev.chartwell.parser.Ast.cmp;
import static dev.chartwell.parser.Ast.eq;
import static dev.chartwell.parser.Ast.exists;
import static dev.chartwell.parser.Ast.ilike;
import static dev.chartwell.parser.Ast.isNull;
import static dev.chartwell.parser.Ast.match;
import static dev.chartwell.parser.Ast.not;
import static dev.chartwell.parser.Ast.or;
import static dev.chartwell.parser.Ast.phrase;
import static dev.chartwell.parser.Ast.range;
import static dev.chartwell.parser.Ast.tok;
import static dev.chartwell.parser.Ast.tokens;
import static dev.chartwell.parser.Expr.CompareOp.GE;
import static dev.chartwell.parser.Expr.CompareOp.GT;
import static dev.chartwell.parser.Expr.CompareOp.LE;
import static dev.chartwell.parser.Expr.CompareOp.LT;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every form of the Lucene-style language, each with the exact tree it must produce. */
class LuceneParseTest {

  static Stream<Arguments> cases() {
    return Stream.of(
        // empty: match everything
        Arguments.of("", all()),
        Arguments.of("   \t\n", all()),
        Arguments.of("*", all()),
        Arguments.of("*:*", all()),
        // bare terms: tokens of the implicit column, lower-cased
        Arguments.of("error", tok("error")),
        Arguments.of("ERROR", tok("error")),
        Arguments.of("Timeout42", tok("timeout42")),
        Arguments.of("\"error\"", tok("error")),
        // phrases and bare terms with separators
        Arguments.of("\"two words\"", phrase("two words")),
        Arguments.of("\"Connection Refused\"", phrase("connection refused")),
        Arguments.of("user_service", phrase("user_service")),
        Arguments.of("api-gateway", phrase("api-gateway")),
        Arguments.of("/api/v1/users", phrase("/api/v1/users")),
        Arguments.of("\"say \\\"hi\\\"\"", phrase("say \"hi\"")),
        Arguments.of("\"\"", phrase("")),
        Arguments.of("café", phrase("café")),
        // URLs and localhost:port are bare terms, not fields
        Arguments.of("http://example.com/a?b=c", phrase("http://example.com/a?b=c")),
        Arguments.of("https://x.io:8443/p", phrase("https://x.io:8443/p")),
        Arguments.of("localhost:8080", phrase("localhost:8080")),
        // bare wildcards
        Arguments.of("time*", tokens("time%")),
        Arguments.of("*out", tokens("%out")),
        Arguments.of("*meo*", tokens("%meo%")),
        Arguments.of("Tim*", tokens("tim%")),
        Arguments.of("50%*", tokens("50\\%%")),
        Arguments.of("foo\\*", phrase("foo*")),
        // field:value
        Arguments.of("level:error", match("level", "error")),
        Arguments.of("service:api-gateway", match("service", "api-gateway")),
        Arguments.of("status:500", match("status", "500")),
        Arguments.of("flag:true", match("flag", "true")),
        Arguments.of(
            "LogAttributes.error.message:boom", match("LogAttributes.error.message", "boom")),
        Arguments.of("url:http://a.b/c", match("url", "http://a.b/c")),
        Arguments.of("delta:-5", match("delta", "-5")),
        Arguments.of("path:a\\ b", match("path", "a b")),
        Arguments.of("time:12\\:30", match("time", "12:30")),
        Arguments.of("f:TO", match("f", "TO")),
        // exact match
        Arguments.of("level:\"error\"", eq("level", "error")),
        Arguments.of("msg:\"two words\"", eq("msg", "two words")),
        Arguments.of("code:\"500\"", eq("code", "500")),
        // field wildcards
        Arguments.of("host:web*", ilike("host", "web%")),
        Arguments.of("host:*01", ilike("host", "%01")),
        Arguments.of("host:*eb*", ilike("host", "%eb%")),
        Arguments.of("host:w*1", ilike("host", "w%1")),
        Arguments.of("name:a_b*", ilike("name", "a\\_b%")),
        Arguments.of("host:*", exists("host")),
        // comparisons
        Arguments.of("status:>500", cmp("status", GT, "500")),
        Arguments.of("status:>=500", cmp("status", GE, "500")),
        Arguments.of("status:<500", cmp("status", LT, "500")),
        Arguments.of("status:<=500", cmp("status", LE, "500")),
        Arguments.of("temp:>-3.5", cmp("temp", GT, "-3.5")),
        Arguments.of("name:>\"m\"", cmp("name", GT, "m")),
        Arguments.of("name:>=abc", cmp("name", GE, "abc")),
        // ranges
        Arguments.of("status:[400 TO 499]", range("status", "400", true, "499", true)),
        Arguments.of("status:{400 TO 499}", range("status", "400", false, "499", false)),
        Arguments.of("status:[400 TO 499}", range("status", "400", true, "499", false)),
        Arguments.of("status:{400 TO 499]", range("status", "400", false, "499", true)),
        Arguments.of("status:[400 TO *]", cmp("status", GE, "400")),
        Arguments.of("status:{400 TO *]", cmp("status", GT, "400")),
        Arguments.of("status:[* TO 499]", cmp("status", LE, "499")),
        Arguments.of("status:[* TO 499}", cmp("status", LT, "499")),
        Arguments.of("status:[* TO *]", not(isNull("status"))),
        Arguments.of("t:[-10 TO -1]", range("t", "-10", true, "-1", true)),
        Arguments.of("name:[\"a b\" TO \"c\"]", range("name", "a b", true, "c", true)),
        // field groups
        Arguments.of("level:(error OR warn)", or(match("level", "error"), match("level", "warn"))),
        Arguments.of("level:(error warn)", and(match("level", "error"), match("level", "warn"))),
        Arguments.of(
            "level:(error -debug)", and(match("level", "error"), not(match("level", "debug")))),
        Arguments.of(
            "level:(\"error\" OR warn* OR >3)",
            or(eq("level", "error"), ilike("level", "warn%"), cmp("level", GT, "3"))),
        Arguments.of(
            "s:((a OR b) AND c)", and(or(match("s", "a"), match("s", "b")), match("s", "c"))),
        // boolean logic and precedence
        Arguments.of("a AND b", and(tok("a"), tok("b"))),
        Arguments.of("a && b", and(tok("a"), tok("b"))),
        Arguments.of("a b", and(tok("a"), tok("b"))),
        Arguments.of("a OR b", or(tok("a"), tok("b"))),
        Arguments.of("a || b", or(tok("a"), tok("b"))),
        Arguments.of("NOT a", not(tok("a"))),
        Arguments.of("-a", not(tok("a"))),
        Arguments.of("+a", tok("a")),
        Arguments.of("a -b", and(tok("a"), not(tok("b")))),
        Arguments.of("a AND NOT b", and(tok("a"), not(tok("b")))),
        Arguments.of("a NOT b", and(tok("a"), not(tok("b")))),
        Arguments.of("a OR b AND c", or(tok("a"), and(tok("b"), tok("c")))),
        Arguments.of("a AND b OR c", or(and(tok("a"), tok("b")), tok("c"))),
        Arguments.of("(a OR b) AND c", and(or(tok("a"), tok("b")), tok("c"))),
        Arguments.of("NOT a AND b", and(not(tok("a")), tok("b"))),
        Arguments.of("NOT (a OR b)", not(or(tok("a"), tok("b")))),
        Arguments.of("NOT NOT a", not(not(tok("a")))),
        Arguments.of("a b c", and(tok("a"), tok("b"), tok("c"))),
        Arguments.of("a OR b OR c", or(tok("a"), tok("b"), tok("c"))),
        Arguments.of("a AND (b AND c)", and(tok("a"), tok("b"), tok("c"))),
        Arguments.of("and or", and(tok("and"), tok("or"))),
        Arguments.of("* AND error", tok("error")),
        Arguments.of(
            "SeverityText:error service:api -host:web*",
            and(
                match("SeverityText", "error"),
                match("service", "api"),
                not(ilike("host", "web%")))),
        Arguments.of(
            "level:error AND (timeout OR \"connection reset\") AND status:>=500",
            and(
                match("level", "error"),
                or(tok("timeout"), phrase("connection reset")),
                cmp("status", GE, "500"))));
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @MethodSource("cases")
  void parsesToTheExpectedTree(String where, Expr expected) {
    assertEquals(expected, WhereParser.parse(where, WhereLanguage.LUCENE));
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @MethodSource("cases")
  void printsCanonicalTextThatParsesBack(String where, Expr expected) {
    String printed = WherePrinter.print(expected, WhereLanguage.LUCENE);
    assertEquals(expected, WhereParser.parse(printed, WhereLanguage.LUCENE), printed);
  }
}
