package dev.chartwell.prometheus.promql;

import dev.chartwell.prometheus.Labels;
import dev.chartwell.prometheus.promql.Expr.Card;
import dev.chartwell.prometheus.promql.Expr.VectorMatching;
import dev.chartwell.prometheus.promql.Val.Row;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Binary operators: scalar/scalar, vector/scalar and vector/vector with matching. */
final class BinaryOps {
  private BinaryOps() {}

  /** {@code lhs op rhs} for two numbers; NaN as "false" for a comparison that does not hold. */
  static double arith(BinaryOp op, double l, double r) {
    return switch (op) {
      case ADD -> l + r;
      case SUB -> l - r;
      case MUL -> l * r;
      case DIV -> l / r;
      case MOD -> l % r;
      case POW -> Math.pow(l, r);
      case ATAN2 -> Math.atan2(l, r);
      case EQL -> l == r ? 1 : 0;
      case NEQ -> l != r ? 1 : 0;
      case GTR -> l > r ? 1 : 0;
      case LSS -> l < r ? 1 : 0;
      case GTE -> l >= r ? 1 : 0;
      case LTE -> l <= r ? 1 : 0;
      default -> throw new IllegalStateException(op.name());
    };
  }

  static boolean dropsName(BinaryOp op, boolean returnBool) {
    return !op.isComparison() || returnBool;
  }

  static Val.Scalar scalars(BinaryOp op, double[] l, double[] r) {
    double[] out = new double[l.length];
    for (int i = 0; i < l.length; i++) {
      out[i] = arith(op, l[i], r[i]);
    }
    return new Val.Scalar(out);
  }

  /** A vector and a scalar ({@code scalarLeft}: the scalar is the left operand). */
  static Val.Vec vectorScalar(
      BinaryOp op, boolean returnBool, Val.Vec vec, double[] s, boolean scalarLeft) {
    List<Row> out = new ArrayList<>();
    boolean drop = dropsName(op, returnBool);
    for (Row r : vec.rows()) {
      double[] v = Val.absentArray(s.length);
      for (int i = 0; i < s.length; i++) {
        double x = r.v()[i];
        if (Val.absent(x)) {
          continue;
        }
        double res = scalarLeft ? arith(op, s[i], x) : arith(op, x, s[i]);
        if (op.isComparison()) {
          if (returnBool) {
            v[i] = res;
          } else if (res == 1) {
            v[i] = x;
          }
        } else {
          v[i] = res;
        }
      }
      out.add(new Row(drop ? Rows.dropName(r.labels()) : r.labels(), v));
    }
    return new Val.Vec(Rows.merge(out));
  }

  /** The labels two series are matched on. */
  static Labels signature(Labels l, VectorMatching m) {
    if (m.on()) {
      return Rows.only(l, m.labels());
    }
    Set<String> drop = new HashSet<>(m.labels());
    drop.add(Labels.NAME);
    return Rows.without(l, drop);
  }

  static Val.Vec set(BinaryOp op, VectorMatching m, Val.Vec lhs, Val.Vec rhs, int n) {
    List<Labels> lsig = new ArrayList<>();
    for (Row r : lhs.rows()) {
      lsig.add(signature(r.labels(), m));
    }
    List<Labels> rsig = new ArrayList<>();
    for (Row r : rhs.rows()) {
      rsig.add(signature(r.labels(), m));
    }
    List<Row> out = new ArrayList<>();
    if (op == BinaryOp.OR) {
      out.addAll(lhs.rows());
      for (int j = 0; j < rhs.rows().size(); j++) {
        Row r = rhs.rows().get(j);
        double[] v = r.v().clone();
        for (int k = 0; k < lhs.rows().size(); k++) {
          if (lsig.get(k).equals(rsig.get(j))) {
            double[] lv = lhs.rows().get(k).v();
            for (int i = 0; i < n; i++) {
              if (!Val.absent(lv[i])) {
                v[i] = Val.ABSENT;
              }
            }
          }
        }
        out.add(new Row(r.labels(), v));
      }
      return new Val.Vec(Rows.merge(out));
    }
    Map<Labels, boolean[]> rhsPresent = new HashMap<>();
    for (int j = 0; j < rhs.rows().size(); j++) {
      boolean[] p = rhsPresent.computeIfAbsent(rsig.get(j), x -> new boolean[n]);
      double[] rv = rhs.rows().get(j).v();
      for (int i = 0; i < n; i++) {
        p[i] |= !Val.absent(rv[i]);
      }
    }
    boolean keepMatched = op == BinaryOp.AND;
    for (int k = 0; k < lhs.rows().size(); k++) {
      Row r = lhs.rows().get(k);
      boolean[] p = rhsPresent.get(lsig.get(k));
      double[] v = r.v().clone();
      for (int i = 0; i < n; i++) {
        boolean matched = p != null && p[i];
        if (matched != keepMatched) {
          v[i] = Val.ABSENT;
        }
      }
      out.add(new Row(r.labels(), v));
    }
    return new Val.Vec(Rows.merge(out));
  }

  /** Arithmetic or comparison between two vectors, one-to-one or with group_left/group_right. */
  static Val.Vec vectors(
      BinaryOp op, boolean returnBool, VectorMatching m, Val.Vec lhsIn, Val.Vec rhsIn, int n) {
    boolean swap = m.card() == Card.ONE_TO_MANY;
    List<Row> many = swap ? rhsIn.rows() : lhsIn.rows();
    List<Row> one = swap ? lhsIn.rows() : rhsIn.rows();
    // The "one" side's rows per signature.
    Map<Labels, List<Integer>> oneBySig = new HashMap<>();
    for (int j = 0; j < one.size(); j++) {
      oneBySig.computeIfAbsent(signature(one.get(j).labels(), m), x -> new ArrayList<>()).add(j);
    }
    Map<Labels, List<Integer>> manyBySig = new LinkedHashMap<>();
    for (int k = 0; k < many.size(); k++) {
      manyBySig.computeIfAbsent(signature(many.get(k).labels(), m), x -> new ArrayList<>()).add(k);
    }
    boolean drop = dropsName(op, returnBool);
    Map<Long, double[]> pairs = new LinkedHashMap<>();
    Map<Long, Labels> pairLabels = new HashMap<>();
    for (Map.Entry<Labels, List<Integer>> group : manyBySig.entrySet()) {
      List<Integer> ones = oneBySig.get(group.getKey());
      if (ones == null) {
        continue;
      }
      for (int i = 0; i < n; i++) {
        int oneRow = -1;
        for (int j : ones) {
          if (!Val.absent(one.get(j).v()[i])) {
            if (oneRow >= 0) {
              throw PromQlException.execution(
                  "found duplicate series for the match group "
                      + group.getKey()
                      + " on the "
                      + (swap ? "left" : "right")
                      + " hand-side of the operation: ["
                      + one.get(oneRow).labels()
                      + ", "
                      + one.get(j).labels()
                      + "];many-to-many matching not allowed: matching labels must be unique on one"
                      + " side");
            }
            oneRow = j;
          }
        }
        if (oneRow < 0) {
          continue;
        }
        Set<Labels> inserted = null;
        boolean matchedOnce = false;
        for (int k : group.getValue()) {
          double x = many.get(k).v()[i];
          if (Val.absent(x)) {
            continue;
          }
          double y = one.get(oneRow).v()[i];
          double l = swap ? y : x;
          double r = swap ? x : y;
          double value;
          if (op.isComparison()) {
            boolean keep = arith(op, l, r) == 1;
            if (returnBool) {
              value = keep ? 1 : 0;
            } else if (keep) {
              value = l;
            } else {
              continue;
            }
          } else {
            value = arith(op, l, r);
          }
          long key = ((long) k << 32) | oneRow;
          Labels oneLabels = one.get(oneRow).labels();
          Labels labels =
              pairLabels.computeIfAbsent(
                  key, x2 -> resultLabels(many.get(k).labels(), oneLabels, m, drop));
          if (m.card() == Card.ONE_TO_ONE) {
            if (matchedOnce) {
              throw PromQlException.execution(
                  "multiple matches for labels: many-to-one matching must be explicit"
                      + " (group_left/group_right)");
            }
            matchedOnce = true;
          } else {
            if (inserted == null) {
              inserted = new HashSet<>();
            }
            if (!inserted.add(labels)) {
              throw PromQlException.execution(
                  "multiple matches for labels: grouping labels must ensure unique matches");
            }
          }
          pairs.computeIfAbsent(key, x2 -> Val.absentArray(n))[i] = value;
        }
      }
    }
    List<Row> out = new ArrayList<>();
    pairs.forEach((key, v) -> out.add(new Row(pairLabels.get(key), v)));
    return new Val.Vec(Rows.merge(out));
  }

  private static Labels resultLabels(Labels many, Labels one, VectorMatching m, boolean drop) {
    Map<String, String> l = new java.util.TreeMap<>(many.asMap());
    if (drop) {
      l.remove(Labels.NAME);
    }
    if (m.card() == Card.ONE_TO_ONE) {
      if (m.on()) {
        l.keySet().retainAll(m.labels());
      } else {
        m.labels().forEach(l::remove);
      }
    }
    for (String name : m.include()) {
      String v = one.get(name);
      if (v.isEmpty()) {
        l.remove(name);
      } else {
        l.put(name, v);
      }
    }
    return Labels.of(l);
  }
}
