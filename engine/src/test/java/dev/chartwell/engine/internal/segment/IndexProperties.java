package dev.chartwell.engine.internal.segment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;

import dev.chartwell.engine.ColumnType;
import dev.chartwell.parser.Tokens;
import dev.chartwell.testing.Gens;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.quicktheories.api.Pair;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/** The dictionary, postings and token index of random segments against a direct computation. */
class IndexProperties {
  record Row(long ts, String value) {}

  @Test
  void dictionaryPostingsAndTokensMatchADirectComputation() {
    qt().withExamples(300).forAll(rows()).checkAssert(IndexProperties::matchesDirectComputation);
  }

  /**
   * Many templated, nearly unique values (the head keeps each row's bytes, sealing sorts them by
   * radix, the token index reads only what a value does not share with the one before it), out of
   * time order, with repeats, absent rows, mixed case and non-ASCII text.
   */
  @Test
  void manyTemplatedValuesMatchADirectComputation() {
    java.util.Random random = new java.util.Random(5);
    String[] templates = {
      "GET /api/v1/users/%d 200 in %dms",
      "user %d logged in from 10.0.0.%d",
      "Timeout after %dms calling payment-service (attempt %d)",
      "été %d — ok %d ok",
      "%d%d",
      "order 00%d of %d000000 and 0", // leading zeros and numbers of more than six digits
      "x"
    };
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      String t = templates[random.nextInt(templates.length)];
      String value =
          random.nextInt(20) == 0
              ? null
              : t.replaceFirst("%d", Integer.toString(random.nextInt(100_000)))
                  .replaceFirst("%d", Integer.toString(random.nextInt(1_000)));
      rows.add(new Row(i / 4 + (random.nextInt(10) == 0 ? -random.nextInt(100) : 0), value));
    }
    matchesDirectComputation(rows);
  }

  /**
   * Tokens in a few hundred rows each, below the share that makes a token common, whose rows come
   * out of the values' sorted order far from ascending.
   */
  @Test
  void tokensOfAFewHundredRowsEachMatchADirectComputation() {
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < 30_000; i++) {
      rows.add(new Row(i, "q" + (i * 7919 % 30_000) + " k" + (i % 100)));
    }
    matchesDirectComputation(rows);
  }

  private static void matchesDirectComputation(List<Row> input) {
    SegmentBuilder b = new SegmentBuilder(1);
    b.addColumn("Body", ColumnType.STRING);
    for (Row r : input) {
      b.append(r.ts(), new Object[] {r.value()});
    }
    Segment s = b.build(0, "Body");

    // Direct computation over the rows in time order (stable for equal times).
    List<Row> sorted = new ArrayList<>(input);
    sorted.sort(java.util.Comparator.comparingLong(Row::ts));
    TreeMap<String, List<Integer>> expectedPostings = new TreeMap<>();
    TreeMap<String, TreeSet<Integer>> expectedTokens = new TreeMap<>();
    for (int i = 0; i < sorted.size(); i++) {
      String v = sorted.get(i).value();
      if (v == null) {
        continue;
      }
      expectedPostings.computeIfAbsent(v, k -> new ArrayList<>()).add(i);
      for (String t : Tokens.lowerCaseTokens(v)) {
        expectedTokens.computeIfAbsent(t, k -> new TreeSet<>()).add(i);
      }
    }

    StringColumn column = (StringColumn) s.column("Body");
    if (expectedPostings.isEmpty()) {
      assertEquals(null, column);
      return;
    }
    Map<String, List<Integer>> actualPostings = new HashMap<>();
    for (int id = 0; id < column.dictionary().size(); id++) {
      actualPostings.put(column.dictionary().get(id), SegmentBuilderTest.rows(column.rows(id)));
      if (id > 0) {
        assertEquals(
            true, column.dictionary().get(id - 1).compareTo(column.dictionary().get(id)) < 0);
      }
      assertEquals(id, column.dictionary().indexOf(column.dictionary().get(id)));
    }
    assertEquals(expectedPostings, actualPostings);
    for (int r = 0; r < sorted.size(); r++) {
      assertEquals(sorted.get(r).value(), column.get(r));
    }

    TokenIndex index = s.tokenIndex();
    Map<String, List<Integer>> actualTokens = new TreeMap<>();
    for (int id = 0; id < index.tokens().size(); id++) {
      actualTokens.put(index.tokens().get(id), SegmentBuilderTest.rows(index.postings().get(id)));
    }
    Map<String, List<Integer>> expected = new TreeMap<>();
    expectedTokens.forEach((t, rows) -> expected.put(t, new ArrayList<>(rows)));
    assertEquals(expected, actualTokens);
  }

  static Gen<List<Row>> rows() {
    Gen<String> values =
        Gens.oneOf(
            Gens.of("GET /a 200", "get /A 500", "Timeout: x", "é-42 ok", ""),
            Gens.strings("aB10 -/é.", 0, 12));
    Gen<String> maybe =
        Generate.frequency(Pair.of(5, values), Pair.of(1, Generate.constant((String) null)));
    return Gens.listOf(Gens.longs(0, 20).zip(maybe, Row::new), 0, 60);
  }
}
