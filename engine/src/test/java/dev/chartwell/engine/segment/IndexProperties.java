package dev.chartwell.engine.segment;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.chartwell.engine.source.ColumnType;
import dev.chartwell.parser.Tokens;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** The dictionary, postings and token index of random segments against a direct computation. */
class IndexProperties {
  record Row(long ts, String value) {}

  @Property(tries = 300)
  void dictionaryPostingsAndTokensMatchADirectComputation(@ForAll("rows") List<Row> input) {
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

  @Provide
  Arbitrary<List<Row>> rows() {
    Arbitrary<String> values =
        Arbitraries.oneOf(
            Arbitraries.of("GET /a 200", "get /A 500", "Timeout: x", "é-42 ok", ""),
            Arbitraries.strings().withChars("aB1 -/é.").ofMaxLength(12));
    Arbitrary<String> maybe =
        Arbitraries.frequencyOf(
            net.jqwik.api.Tuple.of(5, values), net.jqwik.api.Tuple.of(1, Arbitraries.just(null)));
    return Combinators.combine(Arbitraries.longs().between(0, 20), maybe)
        .as(Row::new)
        .list()
        .ofMaxSize(60);
  }
}
