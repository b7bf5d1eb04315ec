package dev.chartwell.parser;

import dev.chartwell.parser.Expr.CompareOp;
import dev.chartwell.parser.Expr.Fold;
import dev.chartwell.parser.Expr.Operand;
import java.util.List;

/** Short constructors for expected trees in tests. */
final class Ast {
  private Ast() {}

  static Expr all() {
    return new Expr.MatchAll();
  }

  static Expr and(Expr... e) {
    return new Expr.And(List.of(e));
  }

  static Expr or(Expr... e) {
    return new Expr.Or(List.of(e));
  }

  static Expr not(Expr e) {
    return new Expr.Not(e);
  }

  static Expr tok(String t) {
    return new Expr.Token(t);
  }

  static Expr phrase(String t) {
    return new Expr.Phrase(t);
  }

  static Expr tokens(String pattern) {
    return new Expr.TokenPattern(pattern);
  }

  static Expr match(String f, String v) {
    return new Expr.Match(f, v);
  }

  static Expr eq(String f, String v) {
    return cmp(f, CompareOp.EQ, v);
  }

  static Expr ne(String f, String v) {
    return not(eq(f, v));
  }

  static Expr cmp(String f, CompareOp op, String v) {
    return new Expr.Compare(Operand.of(f), op, v);
  }

  static Expr cmp(Fold fold, String f, CompareOp op, String v) {
    return new Expr.Compare(new Operand(f, fold), op, v);
  }

  static Expr range(String f, String lo, boolean loIncl, String hi, boolean hiIncl) {
    return new Expr.Range(Operand.of(f), lo, loIncl, hi, hiIncl);
  }

  static Expr in(String f, String... v) {
    return new Expr.In(Operand.of(f), List.of(v));
  }

  static Expr like(String f, String pattern, boolean ci) {
    return new Expr.Like(Operand.of(f), pattern, ci);
  }

  static Expr ilike(String f, String pattern) {
    return like(f, pattern, true);
  }

  static Expr isNull(String f) {
    return new Expr.IsNull(f);
  }

  static Expr exists(String f) {
    return new Expr.Exists(f);
  }

  static Expr hasToken(String f, String t) {
    return new Expr.HasToken(f, t);
  }

  static Expr contains(String f, String t, boolean ci) {
    return new Expr.Contains(f, t, ci);
  }
}
