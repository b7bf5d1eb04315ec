package dev.chartwell.server.patterns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

class DrainTest {
  private static final String[] TEMPLATES = {
    "user %d logged in from 10.0.0.%d",
    "GET /api/v1/users/%d 200 in %dms",
    "cache miss for key session:%d (%d bytes)",
    "connection reset by peer while reading from db-%d after %dms",
    "payment %d authorized amount %d cents",
    "order %s cancelled by %s",
  };
  private static final String[] WORDS = {"alice", "bob", "carol", "dave"};

  static String line(SplittableRandom r, int template) {
    String t = TEMPLATES[template];
    if (t.contains("%s")) {
      return String.format(t, r.nextInt(1000), WORDS[r.nextInt(WORDS.length)]);
    }
    return String.format(t, r.nextInt(100_000), r.nextInt(250));
  }

  @Test
  void findsTheTemplatesOfGeneratedLines() {
    Drain drain = new Drain();
    SplittableRandom r = new SplittableRandom(7);
    for (int i = 0; i < 3000; i++) {
      drain.add(line(r, i % TEMPLATES.length));
    }
    Map<String, Long> found = new TreeMap<>();
    drain.clusters().forEach(c -> found.put(c.template(), c.size()));
    assertEquals(
        Map.of(
            "user <NUM> logged in from <IP>", 500L,
            "GET /api/v1/users/<NUM> <NUM> in <DURATION>", 500L,
            "cache miss for key session:<NUM> (<NUM> bytes)", 500L,
            "connection reset by peer while reading from db-<NUM> after <DURATION>", 500L,
            "payment <NUM> authorized amount <NUM> cents", 500L,
            "order <NUM> cancelled by <*>", 500L),
        found);
  }

  @Test
  void differingPositionsBecomeWildcards() {
    Drain drain = new Drain();
    Drain.Cluster a = drain.add("job cleanup finished ok");
    Drain.Cluster b = drain.add("job cleanup failed ok");
    assertEquals(a, b);
    assertEquals("job cleanup <*> ok", a.template());
    Drain.Cluster other = drain.add("job backup finished ok");
    assertTrue(other != a, "other leading tokens lead to another leaf of the tree");
    Drain.Cluster c = drain.add("job backup failed with error");
    assertTrue(c != a, "a line of another length is another cluster");
    Drain.Cluster d = drain.add("disk full on host ok");
    assertEquals(List.of(a, other, c, d), drain.clusters());
    assertEquals(2, a.size());
  }

  @Test
  void keepsEmptyAndLongLines() {
    Drain drain = new Drain();
    assertEquals("", drain.add("   ").template());
    assertEquals("", drain.add("").template());
    String longLine = "word ".repeat(1000);
    Drain.Cluster c = drain.add(longLine);
    assertEquals(Drain.MAX_LINE / 5, c.tokens().size());
    assertTrue(Drain.matches(c.tokens(), longLine));
  }

  @Test
  void refusesBadSettings() {
    assertThrows(IllegalArgumentException.class, () -> new Drain(1.5, 2, 100));
    assertThrows(IllegalArgumentException.class, () -> new Drain(0.4, 0, 100));
  }

  /** Lines of known templates and of free words, numbers and punctuation. */
  static Gen<List<String>> lines() {
    Gen<String> templated =
        integers()
            .between(0, Integer.MAX_VALUE)
            .map(
                seed -> {
                  SplittableRandom r = new SplittableRandom(seed);
                  return line(r, r.nextInt(TEMPLATES.length));
                });
    Gen<String> free = MaskerTest.awkwardText();
    Gen<String> mixed = integers().between(0, 2).flatMap(k -> k == 0 ? free : templated);
    return lists().of(mixed).ofSizeBetween(0, 60);
  }

  @Test
  void everyLineIsMatchedByTheTemplateItJoined() {
    qt().withExamples(400)
        .forAll(lines(), integers().between(1, 3), integers().between(2, 5))
        .check(
            (ls, depth, children) -> {
              Drain drain = new Drain(0.4, depth, children);
              List<Drain.Cluster> joined = new ArrayList<>();
              for (String l : ls) {
                joined.add(drain.add(l));
              }
              for (int i = 0; i < ls.size(); i++) {
                if (!Drain.matches(joined.get(i).tokens(), ls.get(i))) {
                  return false;
                }
              }
              return true;
            });
  }

  @Test
  void clusterSizesSumToTheLinesAdded() {
    qt().withExamples(400)
        .forAll(lines())
        .check(
            ls -> {
              Drain drain = new Drain();
              ls.forEach(drain::add);
              long sum = drain.clusters().stream().mapToLong(Drain.Cluster::size).sum();
              boolean idsInOrder = true;
              for (int i = 0; i < drain.clusters().size(); i++) {
                idsInOrder &= drain.clusters().get(i).id() == i;
              }
              return sum == ls.size() && idsInOrder;
            });
  }

  @Test
  void everyLineHasEveryWordOfItsTemplatesWhere() {
    qt().withExamples(400)
        .forAll(lines())
        .check(
            ls -> {
              Drain drain = new Drain();
              List<Drain.Cluster> joined = ls.stream().map(drain::add).collect(Collectors.toList());
              for (int i = 0; i < ls.size(); i++) {
                List<String> words = PatternWhereTest.words(ls.get(i));
                if (!words.containsAll(PatternWhere.terms(joined.get(i).tokens()))) {
                  return false;
                }
              }
              return true;
            });
  }
}
