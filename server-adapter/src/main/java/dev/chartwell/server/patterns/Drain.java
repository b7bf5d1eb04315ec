package dev.chartwell.server.patterns;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Clusters lines of text into templates as Drain does (He, Zhu, Zheng and Lyu, "Drain: An Online
 * Log Parsing Approach with Fixed Depth Tree", ICWS 2017). Each line is {@linkplain Masker masked}
 * (so ids and numbers never split a group) and cut into whitespace-separated tokens; a tree whose
 * first level is the token count and whose next {@code prefixDepth} levels are the leading tokens
 * (a token holding a digit, or one past a node's {@code maxChildren}, goes under {@link #WILDCARD})
 * leads to a short list of clusters; the line joins the most similar one (the share of positions
 * where the template's token equals the line's, {@code <*>} not counted; ties to the template with
 * more wildcards) when that share is at least the threshold, its differing positions becoming
 * {@code <*>}, or starts a cluster of its own.
 *
 * <p>A template only ever generalises, so every line added stays matched by its cluster's template
 * ({@link #matches}). Not thread-safe.
 */
public final class Drain {
  /** The token standing for any token in a template. */
  public static final String WILDCARD = "<*>";

  /** The longest line read, in characters; the rest of a longer line is left out. */
  public static final int MAX_LINE = 2_000;

  private final double threshold;
  private final int prefixDepth;
  private final int maxChildren;
  private final Map<Integer, Node> byLength = new HashMap<>();
  private final List<Cluster> clusters = new ArrayList<>();

  /** A cluster: its id (the order it was made in), its template and how many lines joined it. */
  public static final class Cluster {
    private final int id;
    private String[] template;
    private long size;

    private Cluster(int id, String[] template) {
      this.id = id;
      this.template = template;
    }

    /**
     * @return its id, 0 for the first cluster made, then 1, ...
     */
    public int id() {
      return id;
    }

    /**
     * @return its template's tokens (placeholders and {@code <*>} included)
     */
    public List<String> tokens() {
      return List.of(template);
    }

    /**
     * @return its template, the tokens joined by single spaces
     */
    public String template() {
      return String.join(" ", template);
    }

    /**
     * @return how many lines joined it
     */
    public long size() {
      return size;
    }
  }

  private static final class Node {
    final Map<String, Node> children = new HashMap<>();
    final List<Cluster> clusters = new ArrayList<>();
  }

  /** Drain's usual settings: threshold 0.4, two leading tokens, 100 children a node. */
  public Drain() {
    this(0.4, 2, 100);
  }

  /**
   * @param threshold the least similarity, 0 to 1, for a line to join a cluster
   * @param prefixDepth how many leading tokens choose the leaf, at least 1
   * @param maxChildren the most children of a tree node before further tokens go under {@code <*>}
   */
  public Drain(double threshold, int prefixDepth, int maxChildren) {
    if (!(threshold >= 0 && threshold <= 1) || prefixDepth < 1 || maxChildren < 2) {
      throw new IllegalArgumentException("threshold 0..1, prefixDepth >= 1, maxChildren >= 2");
    }
    this.threshold = threshold;
    this.prefixDepth = prefixDepth;
    this.maxChildren = maxChildren;
  }

  /**
   * @param line a line of text (only its first {@value #MAX_LINE} characters are read)
   * @return the tokens the clustering sees: the masked line split at whitespace
   */
  public static String[] tokens(String line) {
    String masked = Masker.mask(line.length() > MAX_LINE ? line.substring(0, MAX_LINE) : line);
    String s = masked.strip();
    return s.isEmpty() ? new String[0] : s.split("\\s+");
  }

  /**
   * Adds a line: it joins the most similar cluster or starts one.
   *
   * @param line a line of text
   * @return the cluster it joined
   */
  public Cluster add(String line) {
    String[] tokens = tokens(line);
    Node leaf = leaf(tokens);
    Cluster best = best(leaf.clusters, tokens);
    if (best == null) {
      best = new Cluster(clusters.size(), tokens);
      clusters.add(best);
      leaf.clusters.add(best);
    } else {
      best.template = merge(best.template, tokens);
    }
    best.size++;
    return best;
  }

  /**
   * @return every cluster, in the order they were made (by id)
   */
  public List<Cluster> clusters() {
    return List.copyOf(clusters);
  }

  /**
   * @param template a template's tokens
   * @param line a line of text
   * @return whether the template matches the line: as many tokens, each equal or {@code <*>}
   */
  public static boolean matches(List<String> template, String line) {
    String[] tokens = tokens(line);
    if (tokens.length != template.size()) {
      return false;
    }
    for (int i = 0; i < tokens.length; i++) {
      String t = template.get(i);
      if (!t.equals(WILDCARD) && !t.equals(tokens[i])) {
        return false;
      }
    }
    return true;
  }

  private Node leaf(String[] tokens) {
    Node node = byLength.computeIfAbsent(tokens.length, n -> new Node());
    int depth = Math.min(prefixDepth, tokens.length);
    for (int i = 0; i < depth; i++) {
      String key = hasDigit(tokens[i]) ? WILDCARD : tokens[i];
      Node next = node.children.get(key);
      if (next == null) {
        if (node.children.size() >= maxChildren - 1 && !key.equals(WILDCARD)) {
          key = WILDCARD;
          next = node.children.get(key);
        }
        if (next == null) {
          next = new Node();
          node.children.put(key, next);
        }
      }
      node = next;
    }
    return node;
  }

  private Cluster best(List<Cluster> candidates, String[] tokens) {
    Cluster best = null;
    double bestSim = -1;
    int bestWild = -1;
    for (Cluster c : candidates) {
      int same = 0;
      int wild = 0;
      for (int i = 0; i < tokens.length; i++) {
        String t = c.template[i];
        if (t.equals(WILDCARD)) {
          wild++;
        } else if (t.equals(tokens[i])) {
          same++;
        }
      }
      double sim = tokens.length == 0 ? 1 : (double) same / tokens.length;
      if (sim > bestSim || (sim == bestSim && wild > bestWild)) {
        best = c;
        bestSim = sim;
        bestWild = wild;
      }
    }
    return best != null && bestSim >= threshold ? best : null;
  }

  private static String[] merge(String[] template, String[] tokens) {
    String[] out = null;
    for (int i = 0; i < tokens.length; i++) {
      if (!template[i].equals(tokens[i]) && !template[i].equals(WILDCARD)) {
        if (out == null) {
          out = Arrays.copyOf(template, template.length);
        }
        out[i] = WILDCARD;
      }
    }
    return out == null ? template : out;
  }

  private static boolean hasDigit(String token) {
    for (int i = 0; i < token.length(); i++) {
      char c = token.charAt(i);
      if (c >= '0' && c <= '9') {
        return true;
      }
    }
    return false;
  }
}
