package dev.chartwell.engine.internal.filter;

import dev.chartwell.parser.Expr;
import dev.chartwell.parser.Expr.CompareOp;
import dev.chartwell.parser.Expr.Fold;
import dev.chartwell.parser.Tokens;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** The value semantics of each {@link Expr} leaf, as {@link ValuePredicate}s. */
final class Predicates {
  private static final BigDecimal LONG_MIN = BigDecimal.valueOf(Long.MIN_VALUE);
  private static final BigDecimal LONG_MAX = BigDecimal.valueOf(Long.MAX_VALUE);

  private Predicates() {}

  /** Lucene's loose {@code field:value}. */
  static ValuePredicate match(String value) {
    String lower = value.toLowerCase(Locale.ROOT);
    BigDecimal exact = Numbers.parseExact(value);
    double d = Numbers.parseDouble(value);
    Boolean bool =
        value.equalsIgnoreCase("true")
            ? Boolean.TRUE
            : value.equalsIgnoreCase("false") ? Boolean.FALSE : null;
    LongInterval equal = exact == null ? LongInterval.EMPTY : LongInterval.of(CompareOp.EQ, exact);
    return new ValuePredicate() {
      @Override
      boolean onString(String v) {
        return v.toLowerCase(Locale.ROOT).contains(lower);
      }

      @Override
      boolean onLong(long v) {
        return equal.contains(v);
      }

      @Override
      boolean onDouble(double v) {
        return v == d;
      }

      @Override
      boolean onBool(boolean v) {
        return bool != null && bool == v;
      }

      @Override
      boolean mayMatchLongs(long min, long max) {
        return equal.overlaps(min, max);
      }

      @Override
      boolean mayMatchDoubles(double min, double max) {
        return d >= min && d <= max;
      }
    };
  }

  /** {@code Compare}: numeric when both sides are numbers, else string; EQ exact on strings. */
  static ValuePredicate compare(Expr.Operand operand, CompareOp op, String value) {
    ValuePredicate plain = comparePlain(op, value);
    return operand.fold() == Fold.NONE ? plain : folded(operand.fold(), plain);
  }

  private static ValuePredicate comparePlain(CompareOp op, String value) {
    BigDecimal exact = Numbers.parseExact(value);
    double d = Numbers.parseDouble(value);
    LongInterval interval = exact == null ? null : LongInterval.of(op, exact);
    return new ValuePredicate() {
      @Override
      boolean onString(String v) {
        if (op == CompareOp.EQ) {
          return v.equals(value);
        }
        double x = Numbers.parseDouble(v);
        if (!Double.isNaN(x) && !Double.isNaN(d)) {
          return test(op, x == d ? 0 : x < d ? -1 : 1);
        }
        return test(op, v.compareTo(value));
      }

      @Override
      boolean onLong(long v) {
        if (interval != null) {
          return interval.contains(v);
        }
        return op != CompareOp.EQ && test(op, Numbers.text(v).compareTo(value));
      }

      @Override
      boolean onDouble(double v) {
        if (!Double.isNaN(d)) {
          return test(op, v == d ? 0 : v < d ? -1 : 1);
        }
        return op != CompareOp.EQ && test(op, Numbers.text(v).compareTo(value));
      }

      @Override
      boolean onBool(boolean v) {
        if (op == CompareOp.EQ) {
          return Boolean.toString(v).equalsIgnoreCase(value);
        }
        return test(op, Boolean.toString(v).compareTo(value));
      }

      @Override
      boolean mayMatchLongs(long min, long max) {
        return interval == null || interval.overlaps(min, max);
      }

      @Override
      boolean mayMatchDoubles(double min, double max) {
        if (Double.isNaN(d)) {
          return true;
        }
        return switch (op) {
          case EQ -> d >= min && d <= max;
          case LT -> min < d;
          case LE -> min <= d;
          case GT -> max > d;
          case GE -> max >= d;
        };
      }
    };
  }

  private static boolean test(CompareOp op, int c) {
    return switch (op) {
      case EQ -> c == 0;
      case LT -> c < 0;
      case LE -> c <= 0;
      case GT -> c > 0;
      case GE -> c >= 0;
    };
  }

  /** {@code lower(field)} / {@code upper(field)}: the predicate sees the folded text. */
  private static ValuePredicate folded(Fold fold, ValuePredicate inner) {
    return new ValuePredicate.OnText() {
      @Override
      boolean onString(String v) {
        return inner.onString(
            fold == Fold.LOWER ? v.toLowerCase(Locale.ROOT) : v.toUpperCase(Locale.ROOT));
      }
    };
  }

  static ValuePredicate all(List<ValuePredicate> parts) {
    return new ValuePredicate() {
      @Override
      boolean onString(String v) {
        for (ValuePredicate p : parts) {
          if (!p.onString(v)) {
            return false;
          }
        }
        return true;
      }

      @Override
      boolean onLong(long v) {
        for (ValuePredicate p : parts) {
          if (!p.onLong(v)) {
            return false;
          }
        }
        return true;
      }

      @Override
      boolean onDouble(double v) {
        for (ValuePredicate p : parts) {
          if (!p.onDouble(v)) {
            return false;
          }
        }
        return true;
      }

      @Override
      boolean onBool(boolean v) {
        for (ValuePredicate p : parts) {
          if (!p.onBool(v)) {
            return false;
          }
        }
        return true;
      }

      @Override
      boolean mayMatchLongs(long min, long max) {
        for (ValuePredicate p : parts) {
          if (!p.mayMatchLongs(min, max)) {
            return false;
          }
        }
        return true;
      }

      @Override
      boolean mayMatchDoubles(double min, double max) {
        for (ValuePredicate p : parts) {
          if (!p.mayMatchDoubles(min, max)) {
            return false;
          }
        }
        return true;
      }
    };
  }

  static ValuePredicate any(List<ValuePredicate> parts) {
    return new ValuePredicate() {
      @Override
      boolean onAbsent() {
        for (ValuePredicate p : parts) {
          if (p.onAbsent()) {
            return true;
          }
        }
        return false;
      }

      @Override
      boolean onString(String v) {
        for (ValuePredicate p : parts) {
          if (p.onString(v)) {
            return true;
          }
        }
        return false;
      }

      @Override
      boolean onLong(long v) {
        for (ValuePredicate p : parts) {
          if (p.onLong(v)) {
            return true;
          }
        }
        return false;
      }

      @Override
      boolean onDouble(double v) {
        for (ValuePredicate p : parts) {
          if (p.onDouble(v)) {
            return true;
          }
        }
        return false;
      }

      @Override
      boolean onBool(boolean v) {
        for (ValuePredicate p : parts) {
          if (p.onBool(v)) {
            return true;
          }
        }
        return false;
      }

      @Override
      boolean mayMatchLongs(long min, long max) {
        for (ValuePredicate p : parts) {
          if (p.mayMatchLongs(min, max)) {
            return true;
          }
        }
        return false;
      }

      @Override
      boolean mayMatchDoubles(double min, double max) {
        for (ValuePredicate p : parts) {
          if (p.mayMatchDoubles(min, max)) {
            return true;
          }
        }
        return false;
      }
    };
  }

  static ValuePredicate range(Expr.Range r) {
    return all(
        List.of(
            compare(r.operand(), r.lowerInclusive() ? CompareOp.GE : CompareOp.GT, r.lower()),
            compare(r.operand(), r.upperInclusive() ? CompareOp.LE : CompareOp.LT, r.upper())));
  }

  static ValuePredicate in(Expr.In in) {
    List<ValuePredicate> eq = new ArrayList<>();
    for (String v : in.values()) {
      eq.add(compare(in.operand(), CompareOp.EQ, v));
    }
    return any(eq);
  }

  static ValuePredicate like(Expr.Like like) {
    LikeMatcher m = new LikeMatcher(like.pattern(), like.caseInsensitive());
    ValuePredicate plain =
        new ValuePredicate.OnText() {
          @Override
          boolean onString(String v) {
            return m.matches(v);
          }
        };
    return like.operand().fold() == Fold.NONE ? plain : folded(like.operand().fold(), plain);
  }

  static ValuePredicate isNull() {
    return new ValuePredicate() {
      @Override
      boolean onString(String v) {
        return false;
      }

      @Override
      boolean onLong(long v) {
        return false;
      }

      @Override
      boolean onDouble(double v) {
        return false;
      }

      @Override
      boolean onBool(boolean v) {
        return false;
      }

      @Override
      boolean onAbsent() {
        return true;
      }

      @Override
      boolean mayMatchLongs(long min, long max) {
        return false;
      }

      @Override
      boolean mayMatchDoubles(double min, double max) {
        return false;
      }
    };
  }

  static ValuePredicate exists() {
    return new ValuePredicate.OnText() {
      @Override
      boolean onString(String v) {
        return !v.isEmpty();
      }
    };
  }

  static ValuePredicate hasToken(String token) {
    return new ValuePredicate.OnText() {
      @Override
      boolean onString(String v) {
        int from = 0;
        while ((from = v.indexOf(token, from)) >= 0) {
          int end = from + token.length();
          boolean startOk = from == 0 || !Tokens.isTokenChar(v.charAt(from - 1));
          boolean endOk = end == v.length() || !Tokens.isTokenChar(v.charAt(end));
          if (startOk && endOk) {
            return true;
          }
          from++;
        }
        return false;
      }
    };
  }

  static ValuePredicate contains(String text, boolean caseInsensitive) {
    String needle = caseInsensitive ? text.toLowerCase(Locale.ROOT) : text;
    return new ValuePredicate.OnText() {
      @Override
      boolean onString(String v) {
        return (caseInsensitive ? v.toLowerCase(Locale.ROOT) : v).contains(needle);
      }
    };
  }

  /** Bare term: a whole token of the implicit column. */
  static ValuePredicate token(String token) {
    boolean possible = Tokens.isSingleToken(token) && token.toLowerCase(Locale.ROOT).equals(token);
    return new ValuePredicate.OnText() {
      @Override
      boolean onString(String v) {
        return possible && hasToken(v, token);
      }
    };
  }

  /**
   * Whether {@code Tokens.lowerCaseTokens(v).contains(token)}, without splitting {@code v}: the
   * token, matched case-insensitively, starts and ends at token boundaries somewhere in it.
   *
   * @param v a text
   * @param token one token, lower-case
   * @return whether it is one of the text's tokens
   */
  static boolean hasToken(String v, String token) {
    int n = token.length();
    char first = token.charAt(0);
    for (int i = 0, last = v.length() - n; i <= last; i++) {
      if (lowerAscii(v.charAt(i)) != first || (i > 0 && Tokens.isTokenChar(v.charAt(i - 1)))) {
        continue;
      }
      int k = 1;
      while (k < n && lowerAscii(v.charAt(i + k)) == token.charAt(k)) {
        k++;
      }
      if (k == n && (i + n == v.length() || !Tokens.isTokenChar(v.charAt(i + n)))) {
        return true;
      }
    }
    return false;
  }

  private static char lowerAscii(char c) {
    return c >= 'A' && c <= 'Z' ? (char) (c + ('a' - 'A')) : c;
  }

  /** Bare phrase: every token present and the whole text present, case-insensitive. */
  static ValuePredicate phrase(String text) {
    Set<String> tokens = new HashSet<>(Tokens.lowerCaseTokens(text));
    return new ValuePredicate.OnText() {
      @Override
      boolean onString(String v) {
        String lower = v.toLowerCase(Locale.ROOT);
        return lower.contains(text) && new HashSet<>(Tokens.lowerCaseTokens(v)).containsAll(tokens);
      }
    };
  }

  /** Bare wildcard: some token matches the pattern. */
  static ValuePredicate tokenPattern(String pattern) {
    LikeMatcher m = new LikeMatcher(pattern, false);
    return new ValuePredicate.OnText() {
      @Override
      boolean onString(String v) {
        for (String t : Tokens.lowerCaseTokens(v)) {
          if (m.matches(t)) {
            return true;
          }
        }
        return false;
      }
    };
  }

  static LikeMatcher tokenMatcher(String pattern) {
    return new LikeMatcher(pattern, false);
  }

  /** The longs satisfying {@code v op literal}, exactly, as one inclusive interval. */
  record LongInterval(long lo, long hi) {
    static final LongInterval EMPTY = new LongInterval(1, 0);

    static LongInterval of(CompareOp op, BigDecimal lit) {
      BigDecimal floor = lit.setScale(0, RoundingMode.FLOOR);
      BigDecimal ceil = lit.setScale(0, RoundingMode.CEILING);
      return switch (op) {
        case EQ -> floor.compareTo(lit) == 0 ? between(floor, floor) : EMPTY;
        case GT -> between(floor.add(BigDecimal.ONE), LONG_MAX);
        case GE -> between(ceil, LONG_MAX);
        case LT -> between(LONG_MIN, ceil.subtract(BigDecimal.ONE));
        case LE -> between(LONG_MIN, floor);
      };
    }

    private static LongInterval between(BigDecimal lo, BigDecimal hi) {
      BigDecimal l = lo.max(LONG_MIN);
      BigDecimal h = hi.min(LONG_MAX);
      if (l.compareTo(h) > 0) {
        return EMPTY;
      }
      return new LongInterval(l.longValueExact(), h.longValueExact());
    }

    boolean contains(long v) {
      return v >= lo && v <= hi;
    }

    boolean overlaps(long min, long max) {
      return lo <= hi && lo <= max && hi >= min;
    }
  }
}
