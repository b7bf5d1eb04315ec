package dev.chartwell.engine.internal.segment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.quicktheories.QuickTheory.qt;

import dev.chartwell.engine.ColumnType;
import dev.chartwell.testing.Gens;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.quicktheories.api.Pair;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/**
 * A token index put together from the indexes of consecutive row ranges ({@link TokenIndexMerge},
 * as a head's part built ahead takes in older parts) against the index built from every row.
 */
class TokenIndexMergeProperties {
  private static final String BODY = "Body";

  /** Rows in time order: the merged index is used, and equals the one built from scratch. */
  @Test
  void mergedIndexOfRowsInTimeOrderEqualsTheOneBuiltFromScratch() {
    qt().withExamples(300)
        .forAll(values(), Gens.listOf(Gens.ints(0, 60), 0, 5))
        .checkAssert((values, cuts) -> check(values, cuts, false));
  }

  /** Rows out of time order: the index is built from every row; still equal. */
  @Test
  void rowsOutOfTimeOrderStillGiveTheIndexOfEveryRow() {
    qt().withExamples(200)
        .forAll(values(), Gens.listOf(Gens.ints(0, 60), 0, 5))
        .checkAssert((values, cuts) -> check(values, cuts, true));
  }

  /** Many templated, nearly unique values with common and rare tokens, cut in uneven ranges. */
  @Test
  void largeRangesOfTemplatedValues() {
    java.util.Random random = new java.util.Random(11);
    String[] templates = {
      "GET /api/v1/users/%d 200 in %dms", "Timeout after %dms calling payment (attempt %d)", "x"
    };
    List<String> values = new ArrayList<>();
    for (int i = 0; i < 70_000; i++) {
      String t = templates[random.nextInt(templates.length)];
      values.add(
          random.nextInt(30) == 0
              ? null
              : t.replaceFirst("%d", Integer.toString(random.nextInt(100_000)))
                  .replaceFirst("%d", Integer.toString(random.nextInt(1_000))));
    }
    check(values, List.of(1_024, 5_000, 5_001, 40_000, 69_999), false);
  }

  @Test
  void directConcatOfRangeIndexes() {
    TokenIndex a = index("b a", "c");
    TokenIndex b = index("a", "d b");
    TokenIndex merged =
        TokenIndexMerge.concat(java.util.Arrays.asList(a, null, b), new int[] {0, 2, 2}, 4);
    assertEquals(
        Map.of("a", List.of(0, 2), "b", List.of(0, 3), "c", List.of(1), "d", List.of(3)),
        tokens(merged));
    assertNull(TokenIndexMerge.concat(java.util.Arrays.asList(null, null), new int[] {0, 3}, 5));
    assertThrows(
        IllegalArgumentException.class,
        () -> TokenIndexMerge.concat(List.of(a, b), new int[] {2, 0}, 4));
    assertThrows(
        IllegalArgumentException.class,
        () -> TokenIndexMerge.concat(List.of(a, b), new int[] {0, 2}, 3));
  }

  private static TokenIndex index(String... values) {
    SegmentBuilder b = new SegmentBuilder(1);
    b.addColumn(BODY, ColumnType.STRING);
    for (String v : values) {
      b.append(1, new Object[] {v});
    }
    return b.build(0, BODY).tokenIndex();
  }

  /**
   * Builds the rows' parts at the cuts (each with its index), then the whole from the parts before
   * the last cut and the rows after it, and compares its index with one built from every row.
   */
  private static void check(List<String> values, List<Integer> cutsGiven, boolean shuffleTimes) {
    SegmentBuilder b = new SegmentBuilder(1);
    b.addColumn("level", ColumnType.STRING);
    b.addColumn(BODY, ColumnType.STRING);
    java.util.Random random = new java.util.Random(values.size());
    for (int i = 0; i < values.size(); i++) {
      long ts = shuffleTimes ? random.nextInt(10) : i / 3;
      b.append(ts, new Object[] {i % 2 == 0 ? "info" : null, values.get(i)});
    }
    List<Integer> cuts = new ArrayList<>();
    for (int c : cutsGiven) {
      cuts.add(Math.min(c, values.size()));
    }
    cuts.sort(null);
    List<Segment> parts = new ArrayList<>();
    int from = 0;
    for (int cut : cuts) {
      Segment part = b.copy(from, cut).build(parts.size() + 1, from, BODY);
      part.tokenIndex();
      parts.add(part);
      from = cut;
    }
    Segment scratch = b.build(0, BODY);
    // From the head itself (as a sealed head is) and from a copy of it (as a part built ahead is).
    for (SegmentBuilder rows : List.of(b, b.copy(0, values.size()))) {
      Segment merged = rows.build(0, BODY, parts);
      assertEquals(tokens(scratch.tokenIndex()), tokens(merged.tokenIndex()));
      assertEquals(SegmentRows.read(scratch), SegmentRows.read(merged));
    }
  }

  private static Map<String, List<Integer>> tokens(TokenIndex index) {
    Map<String, List<Integer>> out = new TreeMap<>();
    if (index == null) {
      return out;
    }
    for (int id = 0; id < index.tokens().size(); id++) {
      out.put(index.tokens().get(id), SegmentBuilderTest.rows(index.postings().get(id)));
      if (id > 0) {
        assertEquals(true, index.tokens().get(id - 1).compareTo(index.tokens().get(id)) < 0);
      }
    }
    return out;
  }

  private static Gen<List<String>> values() {
    Gen<String> text =
        Gens.oneOf(
            Gens.of("GET /a 200", "get /A 500", "Timeout: x", "é-42 ok", ""),
            Gens.strings("aB10 -/é.", 0, 12));
    Gen<String> maybe =
        Generate.frequency(Pair.of(5, text), Pair.of(1, Generate.constant((String) null)));
    return Gens.listOf(maybe, 0, 60);
  }
}
