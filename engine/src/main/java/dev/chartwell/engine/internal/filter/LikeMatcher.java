package dev.chartwell.engine.internal.filter;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A compiled {@code LIKE} pattern: {@code %} any run, {@code _} any one character (code point),
 * {@code \} escapes.
 *
 * <p>Matching never backtracks: the pattern is split at its {@code %} into pieces; the first piece
 * must match at the start, the last at the end, and each piece between is taken at its leftmost
 * match after the previous one (the leftmost choice never loses a match, since what follows a
 * {@code %} may start anywhere). A value of length n is matched in O(n · m) for a pattern of length
 * m, whatever the pattern: {@code '_%_%_%_%_%z'} costs no more than its length says. Patterns made
 * of literals and {@code %} only use {@link String#startsWith}, {@link String#endsWith} and {@link
 * String#indexOf}.
 */
final class LikeMatcher {
  /** Marks {@code _} in a piece's code points (never a valid code point). */
  private static final int ANY_ONE = -1;

  private final boolean caseInsensitive;

  /** The pieces between {@code %}: code points, {@link #ANY_ONE} for {@code _}. */
  private final int[][] pieces;

  /** The pieces as strings, when no piece holds {@code _} (else {@code null}). */
  private final String[] literals;

  /** Whether the pattern has no {@code %}: the value must match the one piece whole. */
  private final boolean exact;

  LikeMatcher(String pattern, boolean caseInsensitive) {
    this.caseInsensitive = caseInsensitive;
    String p = caseInsensitive ? pattern.toLowerCase(Locale.ROOT) : pattern;
    List<int[]> parts = new ArrayList<>();
    List<Integer> current = new ArrayList<>();
    boolean anyOne = false;
    boolean percent = false;
    int i = 0;
    while (i < p.length()) {
      int c = p.codePointAt(i);
      i += Character.charCount(c);
      if (c == '\\' && i < p.length()) {
        int escaped = p.codePointAt(i);
        i += Character.charCount(escaped);
        current.add(escaped);
      } else if (c == '%') {
        percent = true;
        parts.add(toArray(current));
        current.clear();
      } else if (c == '_') {
        anyOne = true;
        current.add(ANY_ONE);
      } else {
        current.add(c);
      }
    }
    parts.add(toArray(current));
    this.pieces = parts.toArray(new int[0][]);
    this.exact = !percent;
    if (anyOne) {
      this.literals = null;
    } else {
      this.literals = new String[pieces.length];
      for (int k = 0; k < pieces.length; k++) {
        literals[k] = new String(pieces[k], 0, pieces[k].length);
      }
    }
  }

  private static int[] toArray(List<Integer> codePoints) {
    int[] out = new int[codePoints.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = codePoints.get(i);
    }
    return out;
  }

  boolean matches(String value) {
    String v = caseInsensitive ? value.toLowerCase(Locale.ROOT) : value;
    return literals != null ? matchesLiterals(v) : matchesCodePoints(v.codePoints().toArray());
  }

  private boolean matchesLiterals(String v) {
    if (exact) {
      return v.equals(literals[0]);
    }
    String first = literals[0];
    String last = literals[literals.length - 1];
    if (v.length() < first.length() + last.length() || !v.startsWith(first) || !v.endsWith(last)) {
      return false;
    }
    int from = first.length();
    int to = v.length() - last.length();
    for (int k = 1; k < literals.length - 1; k++) {
      int at = v.indexOf(literals[k], from);
      if (at < 0 || at + literals[k].length() > to) {
        return false;
      }
      from = at + literals[k].length();
    }
    return true;
  }

  private boolean matchesCodePoints(int[] v) {
    if (exact) {
      return v.length == pieces[0].length && matchesAt(pieces[0], v, 0);
    }
    int[] first = pieces[0];
    int[] last = pieces[pieces.length - 1];
    if (v.length < first.length + last.length
        || !matchesAt(first, v, 0)
        || !matchesAt(last, v, v.length - last.length)) {
      return false;
    }
    int from = first.length;
    int to = v.length - last.length;
    for (int k = 1; k < pieces.length - 1; k++) {
      int[] piece = pieces[k];
      int at = -1;
      for (int start = from; start + piece.length <= to; start++) {
        if (matchesAt(piece, v, start)) {
          at = start;
          break;
        }
      }
      if (at < 0) {
        return false;
      }
      from = at + piece.length;
    }
    return true;
  }

  private static boolean matchesAt(int[] piece, int[] v, int start) {
    for (int i = 0; i < piece.length; i++) {
      if (piece[i] != ANY_ONE && piece[i] != v[start + i]) {
        return false;
      }
    }
    return true;
  }
}
