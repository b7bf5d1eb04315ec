package dev.chartwell.engine.internal.segment;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import dev.chartwell.engine.ColumnType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Differential: the token index a segment gets by merging the token indexes of parts built before
 * from its first rows ({@link SegmentBuilder#build(long, int, String, List)}) is the one {@link
 * TokenIndexBuilder} builds by tokenizing every row, byte for byte, whatever the rows (timestamps
 * out of order and tied, texts sharing tokens in any case, rows without a value), the split into
 * parts, and whether the parts were themselves merged from smaller ones, as a head's tiers are.
 */
class TokenIndexMergerProperties {
  private static final String[] WORDS = {
    "error",
    "Error",
    "timeout",
    "GET",
    "user",
    "a",
    "b1",
    "conn",
    "retry",
    "ok",
    "x9z",
    "deadbeef",
    "deadbeef00",
    "Connection",
    "connections",
    "connectionz"
  };

  @Test
  void mergedPartsIndexTheRowsAsTokenizingThemDoes() {
    qt().withExamples(250)
        .forAll(longs().all(), integers().between(0, 1_500), integers().between(0, 4))
        .checkAssert((seed, rows, shape) -> check(new SplittableRandom(seed), rows, shape, false));
  }

  /** Past 4,096 distinct values the head keeps each row's text: the other way to the index. */
  @Test
  void mergedPartsOfRowsWithTheirOwnTextIndexThemAsTokenizingDoes() {
    qt().withExamples(12)
        .forAll(longs().all(), integers().between(9_000, 12_000), integers().between(0, 4))
        .checkAssert((seed, rows, shape) -> check(new SplittableRandom(seed), rows, shape, true));
  }

  @Test
  void partsWithNoValueInTheColumnMergeWithTheRest() {
    SegmentBuilder head = head();
    for (int r = 0; r < 10; r++) {
      head.append(1_000 - r, new Object[] {r < 6 ? null : "late Error " + r, (long) r});
    }
    Segment first = head.copy(0, 6).build(1, 0, "body");
    assertNull(first.tokenIndex(), "no value, no index");
    assertSame(head.copy().build(2, "body").tokenIndex(), merged(head, List.of(first)));
    SegmentBuilder none = head();
    none.append(5, new Object[] {null, 1L});
    none.append(4, new Object[] {null, 2L});
    assertNull(none.build(3, 0, "body", List.of(none.copy(0, 1).build(4, 0, "body"))).tokenIndex());
  }

  @Test
  void partsHoldingMoreRowsThanTheBuilderAreRefused() {
    SegmentBuilder head = head();
    head.append(1, new Object[] {"a", 1L});
    Segment part = head.copy().build(1, 0, "body");
    SegmentBuilder shorter = head();
    assertThrows(IllegalArgumentException.class, () -> shorter.build(2, 0, "body", List.of(part)));
  }

  private static void check(SplittableRandom random, int rows, int shape, boolean unique) {
    SegmentBuilder head = head();
    long[] times = new long[rows];
    for (int r = 0; r < rows; r++) {
      // shape 0: in order; 1: ties; 2: out of order within a window; 3, 4: anywhere
      times[r] =
          switch (shape) {
            case 0 -> 1_000L + r;
            case 1 -> 1_000L + r / 7;
            case 2 -> 1_000L + r + random.nextInt(50);
            default -> 1_000L + random.nextInt(Math.max(1, rows / 3));
          };
      head.append(times[r], new Object[] {text(random, r, unique), (long) r});
    }
    int covered = rows == 0 ? 0 : random.nextInt(rows + 1);
    List<Segment> parts = parts(head, 0, covered, random, 2);
    Segment merged = head.copy().build(9, 0, "body", parts);
    Segment whole = head.copy().build(10, "body");
    assertSame(whole.tokenIndex(), merged.tokenIndex());
  }

  /** Parts covering rows [from, to), each built from raw rows or merged from smaller parts. */
  private static List<Segment> parts(
      SegmentBuilder head, int from, int to, SplittableRandom random, int depth) {
    List<Segment> out = new ArrayList<>();
    int at = from;
    while (at < to) {
      int end = at + 1 + random.nextInt(to - at);
      SegmentBuilder rows = head.copy(at, end);
      if (depth > 0 && random.nextBoolean()) {
        int inner = at + random.nextInt(end - at + 1);
        List<Segment> earlier = parts(head, at, inner, random, depth - 1);
        out.add(rows.build(out.size(), at, "body", earlier));
      } else {
        Segment s = rows.build(out.size(), at, "body");
        s.tokenIndex();
        out.add(s);
      }
      at = end;
    }
    return out;
  }

  private static String text(SplittableRandom random, int row, boolean unique) {
    if (random.nextInt(20) == 0) {
      return null;
    }
    StringBuilder b = new StringBuilder();
    int words = random.nextInt(6);
    for (int w = 0; w < words; w++) {
      b.append(WORDS[random.nextInt(WORDS.length)]);
      b.append(random.nextBoolean() ? " " : random.nextBoolean() ? "=" : ", ");
      if (random.nextInt(8) == 0) {
        b.append(random.nextInt(1_000)); // a rare token
      }
    }
    if (unique) {
      b.append(" id-").append(Integer.toHexString(row * 7919)).append("-é");
    }
    return b.toString();
  }

  private static SegmentBuilder head() {
    SegmentBuilder head = new SegmentBuilder(16);
    head.addColumn("body", ColumnType.STRING);
    head.addColumn("n", ColumnType.LONG);
    return head;
  }

  private static TokenIndex merged(SegmentBuilder head, List<Segment> parts) {
    return head.copy().build(7, 0, "body", parts).tokenIndex();
  }

  /** The same index: the same dictionary, entry for entry and in the same layout, and postings. */
  static void assertSame(TokenIndex expected, TokenIndex actual) {
    if (expected == null) {
      assertNull(actual, "no value in any row, no index");
      return;
    }
    assertEquals(expected.tokens().layout(), actual.tokens().layout(), "dictionary layout");
    assertEquals(expected.tokens().size(), actual.tokens().size(), "tokens");
    for (int id = 0; id < expected.tokens().size(); id++) {
      assertEquals(expected.tokens().get(id), actual.tokens().get(id), "token " + id);
      assertEquals(expected.postings().get(id), actual.postings().get(id), "rows of token " + id);
    }
    assertEquals(expected.postings().data(), actual.postings().data(), "postings' bytes");
    assertArrayEquals(
        entries(expected.postings().entries()),
        entries(actual.postings().entries()),
        "postings' entries");
  }

  private static long[] entries(PackedLongs p) {
    long[] out = new long[p.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = p.get(i);
    }
    return out;
  }

  @Test
  void mergedRowsAreTheStableSortOfTheRunsTogether() {
    qt().withExamples(300)
        .forAll(longs().all(), integers().between(0, 400), integers().between(1, 6))
        .checkAssert(
            (seed, rows, runs) -> {
              SplittableRandom random = new SplittableRandom(seed);
              long[] keys = new long[rows];
              for (int r = 0; r < rows; r++) {
                keys[r] = random.nextInt(Math.max(1, rows / 4));
              }
              int[] cuts = new int[runs + 1];
              cuts[runs] = rows;
              for (int i = 1; i < runs; i++) {
                cuts[i] = random.nextInt(rows + 1);
              }
              Arrays.sort(cuts);
              long[][] sortedRuns = new long[runs][];
              for (int i = 0; i < runs; i++) {
                sortedRuns[i] = Arrays.copyOfRange(keys, cuts[i], cuts[i + 1]);
                Arrays.sort(sortedRuns[i]); // a run's own stable order keeps its rows' order
              }
              int[][] maps = RowOrder.mergedRows(sortedRuns);
              int[] order = RowOrder.sortedOrNull(keys, rows);
              int[] rowOfArrival = new int[rows]; // the expected row of each arrival
              for (int i = 0; i < rows; i++) {
                rowOfArrival[order == null ? i : order[i]] = i;
              }
              for (int i = 0; i < runs; i++) {
                int[] own =
                    RowOrder.sortedOrNull(
                        Arrays.copyOfRange(keys, cuts[i], cuts[i + 1]), cuts[i + 1] - cuts[i]);
                for (int k = 0; k < maps[i].length; k++) {
                  int arrival = cuts[i] + (own == null ? k : own[k]);
                  assertEquals(rowOfArrival[arrival], maps[i][k], "run " + i + " row " + k);
                }
              }
            });
  }
}
