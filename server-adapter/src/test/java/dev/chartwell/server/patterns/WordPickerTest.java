package dev.chartwell.server.patterns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.booleans;

import java.util.BitSet;
import java.util.List;
import org.junit.jupiter.api.Test;

class WordPickerTest {
  private static final List<String> LINES =
      List.of(
          "user 1 logged in from 10.0.0.1",
          "user 2 logged in from 10.0.0.2",
          "user 3 logged out",
          "payment 4 for user 5",
          "In from User logged");

  private static BitSet of(int... lines) {
    BitSet b = new BitSet();
    for (int l : lines) {
      b.set(l);
    }
    return b;
  }

  @Test
  void theFewestWordsThatSingleOutThePatternsLines() {
    WordPicker p = new WordPicker(LINES, false, true);
    List<String> words = List.of("user", "logged", "in", "from");
    assertEquals(List.of("in"), p.pick(words, of(0, 1), LINES.size()), "line 4 has all four");
    assertEquals(of(0, 1, 4), p.linesWithAll(List.of("in"), LINES.size()));
    assertEquals(List.of("logged"), p.pick(List.of("user", "logged"), of(0, 1, 2), 5), "4 also");
    assertEquals(List.of("payment"), p.pick(List.of("payment", "for", "user"), of(3), 5));
    assertEquals(List.of(), p.pick(List.of(), of(3), 5));
  }

  @Test
  void sqlWordsAreCaseSensitiveAndOtherFieldsContain() {
    WordPicker sql = new WordPicker(LINES, true, false);
    assertEquals(of(0, 1, 2, 3), sql.linesWith("user"));
    assertEquals(of(4), sql.linesWith("User"));
    WordPicker contains = new WordPicker(LINES, false, false);
    assertEquals(of(0, 1, 2, 4), contains.linesWith("log"));
  }

  @Test
  void thePickedWordsMatchEveryLineOfThePatternAndNoMoreOthersThanAllWords() {
    qt().withExamples(200)
        .forAll(DrainTest.lines(), booleans().all(), booleans().all())
        .check(
            (lines, sql, implicit) -> {
              Drain drain = new Drain();
              int[] joined = lines.stream().mapToInt(l -> drain.add(l).id()).toArray();
              WordPicker p = new WordPicker(lines, sql, implicit);
              for (Drain.Cluster c : drain.clusters()) {
                BitSet mine = new BitSet();
                for (int i = 0; i < joined.length; i++) {
                  mine.set(i, joined[i] == c.id());
                }
                List<String> terms = PatternWhere.terms(c.tokens());
                List<String> picked = p.pick(terms, mine, lines.size());
                BitSet matched = p.linesWithAll(picked, lines.size());
                BitSet all = p.linesWithAll(terms, lines.size());
                BitSet covered = (BitSet) mine.clone();
                covered.andNot(matched);
                if (!covered.isEmpty() || matched.cardinality() != all.cardinality()) {
                  return false;
                }
              }
              return true;
            });
  }
}
