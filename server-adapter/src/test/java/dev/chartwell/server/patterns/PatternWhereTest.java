package dev.chartwell.server.patterns;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PatternWhereTest {
  /** The words of a line as the where languages cut them: maximal runs of ASCII letters, digits. */
  static List<String> words(String line) {
    List<String> out = new ArrayList<>();
    for (String w : line.split("[^A-Za-z0-9]+")) {
      if (!w.isEmpty()) {
        out.add(w);
      }
    }
    return out;
  }

  private static List<String> template(String line) {
    return List.of(Drain.tokens(line));
  }

  @Test
  void wordsOfTheConstantText() {
    assertEquals(
        List.of("connection", "reset", "from", "db", "after"),
        PatternWhere.terms(template("connection reset from db-12 after 40ms <*> reset")));
    assertEquals(List.of(), PatternWhere.terms(List.of("<*>", "<NUM>", "<IP>")));
    assertEquals(
        List.of("GET", "api", "v1", "users", "in"),
        PatternWhere.terms(template("GET /api/v1/users/17 200 in 3ms")));
  }

  @Test
  void luceneWhere() {
    List<String> t = PatternWhere.terms(template("User 7 logged IN from 10.0.0.1 AND left"));
    assertEquals("user logged in from and left", PatternWhere.lucene(t, "Body", true, null));
    assertEquals(
        "(ServiceName:api) user logged in from and left",
        PatternWhere.lucene(t, "Body", true, " ServiceName:api "));
    assertEquals(
        "Log\\ Attributes.msg:user Log\\ Attributes.msg:logged",
        PatternWhere.lucene(List.of("user", "logged"), "Log Attributes.msg", false, ""));
    assertEquals("", PatternWhere.lucene(List.of(), "Body", true, ""));
    assertEquals("(a:1)", PatternWhere.lucene(List.of(), "Body", true, "a:1"));
  }

  @Test
  void sqlWhere() {
    List<String> t = PatternWhere.terms(template("User 7 logged in"));
    assertEquals(
        "hasToken(`Body`, 'User') AND hasToken(`Body`, 'logged') AND hasToken(`Body`, 'in')",
        PatternWhere.sql(t, "Body", null));
    assertEquals(
        "(status >= 500) AND hasToken(`Body`, 'User') AND hasToken(`Body`, 'logged')"
            + " AND hasToken(`Body`, 'in')",
        PatternWhere.sql(t, "Body", "status >= 500"));
    assertEquals("", PatternWhere.sql(List.of(), "Body", ""));
  }

  @Test
  void atMostSixteenWords() {
    StringBuilder line = new StringBuilder();
    for (int i = 0; i < 40; i++) {
      line.append("w").append((char) ('a' + i % 26)).append((char) ('a' + i / 26)).append(' ');
    }
    assertEquals(PatternWhere.MAX_TERMS, PatternWhere.terms(template(line.toString())).size());
  }
}
