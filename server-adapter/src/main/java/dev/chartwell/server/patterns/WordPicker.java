package dev.chartwell.server.patterns;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Chooses, among a pattern's words, the fewest that single out its lines among the lines read: a
 * where needing fewer words is cheaper to count and easier to read, and matches every line of the
 * pattern all the same (each has all of its words). Greedy: the word leaving the fewest other lines
 * first, then the next, until no further word leaves fewer other lines than all of them together.
 * Words are tested as the where tests them ({@link PatternWhere}): whole words, case-insensitive
 * (Lucene on the implicit column) or case-sensitive (SQL's {@code hasToken}), or contained,
 * case-insensitive (Lucene on another field).
 */
public final class WordPicker {
  private static final Pattern WORD_SPLIT = Pattern.compile("[^A-Za-z0-9]+");

  private final List<String> lowered = new ArrayList<>();
  private final List<Set<String>> words = new ArrayList<>();
  private final boolean sql;
  private final boolean contains;
  private final Map<String, BitSet> having = new HashMap<>();

  /**
   * @param texts the lines read
   * @param sql whether the where is SQL's
   * @param implicit whether a Lucene where searches the implicit column (else a named field)
   */
  public WordPicker(List<String> texts, boolean sql, boolean implicit) {
    this.sql = sql;
    this.contains = !sql && !implicit;
    for (String t : texts) {
      if (contains) {
        lowered.add(t.toLowerCase(Locale.ROOT));
      } else {
        Set<String> w = new HashSet<>();
        Collections.addAll(w, WORD_SPLIT.split(sql ? t : t.toLowerCase(Locale.ROOT)));
        words.add(w);
      }
    }
  }

  /**
   * @param word a word
   * @return the lines (by index) the where of that word matches
   */
  public BitSet linesWith(String word) {
    String w = sql ? word : word.toLowerCase(Locale.ROOT);
    return having.computeIfAbsent(
        w,
        k -> {
          int n = contains ? lowered.size() : words.size();
          BitSet out = new BitSet(n);
          for (int i = 0; i < n; i++) {
            if (contains ? lowered.get(i).contains(k) : words.get(i).contains(k)) {
              out.set(i);
            }
          }
          return out;
        });
  }

  /**
   * @param chosen words
   * @param lines how many lines were read
   * @return the lines the where of all those words matches
   */
  public BitSet linesWithAll(List<String> chosen, int lines) {
    BitSet out = new BitSet(lines);
    out.set(0, lines);
    for (String w : chosen) {
      out.and(linesWith(w));
    }
    return out;
  }

  /**
   * @param terms the pattern's words ({@link PatternWhere#terms})
   * @param mine the pattern's lines (by index)
   * @param lines how many lines were read
   * @return the fewest of the words, in their order, whose where matches as few other lines as all
   *     of them do
   */
  public List<String> pick(List<String> terms, BitSet mine, int lines) {
    int floor = others(linesWithAll(terms, lines), mine);
    List<String> chosen = new ArrayList<>();
    BitSet current = new BitSet(lines);
    current.set(0, lines);
    while (others(current, mine) > floor) {
      String best = null;
      int bestOthers = Integer.MAX_VALUE;
      for (String t : terms) {
        if (chosen.contains(t)) {
          continue;
        }
        BitSet next = (BitSet) current.clone();
        next.and(linesWith(t));
        int o = others(next, mine);
        if (o < bestOthers) {
          best = t;
          bestOthers = o;
        }
      }
      chosen.add(best);
      current.and(linesWith(best));
    }
    List<String> inOrder = new ArrayList<>(terms);
    inOrder.retainAll(chosen);
    return inOrder;
  }

  private static int others(BitSet matched, BitSet mine) {
    BitSet o = (BitSet) matched.clone();
    o.andNot(mine);
    return o.cardinality();
  }
}
