package dev.chartwell.engine.internal.filter;

import dev.chartwell.engine.ColumnType;
import dev.chartwell.engine.InvalidQueryException;
import dev.chartwell.engine.internal.source.Schema;
import dev.chartwell.parser.Expr;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Compiles a {@code where} tree against a source's schema into a {@link Filter}. */
public final class FilterCompiler {
  private FilterCompiler() {}

  /**
   * @param expr the parsed {@code where}
   * @param schema the source's schema (gives each field its type, hence its cost)
   * @param implicitColumn the source's implicit column, or {@code null}
   * @param path the field path for error messages, for example {@code series[0].where}
   * @return the filter
   * @throws InvalidQueryException when a bare term is used on a source without implicit column
   */
  public static Filter compile(Expr expr, Schema schema, String implicitColumn, String path) {
    return new FilterCompiler.Compiler(schema, implicitColumn, path).compile(expr);
  }

  private record Compiler(Schema schema, String implicitColumn, String path) {
    Filter compile(Expr e) {
      if (e instanceof Expr.MatchAll) {
        return new Filter.MatchAll();
      }
      if (e instanceof Expr.And a) {
        return new Filter.And(children(a.operands()));
      }
      if (e instanceof Expr.Or o) {
        return or(children(o.operands()));
      }
      if (e instanceof Expr.Not n) {
        return new Filter.Not(compile(n.operand()));
      }
      if (e instanceof Expr.Token t) {
        return text(Filter.Text.Kind.TOKEN, t.token());
      }
      if (e instanceof Expr.Phrase p) {
        return text(Filter.Text.Kind.PHRASE, p.text());
      }
      if (e instanceof Expr.TokenPattern p) {
        return text(Filter.Text.Kind.PATTERN, p.pattern());
      }
      if (e instanceof Expr.Match m) {
        return field(m.field(), Predicates.match(m.value()));
      }
      if (e instanceof Expr.Compare c) {
        return field(c.operand().field(), Predicates.compare(c.operand(), c.op(), c.value()));
      }
      if (e instanceof Expr.Range r) {
        return field(r.operand().field(), Predicates.range(r));
      }
      if (e instanceof Expr.In in) {
        return field(in.operand().field(), Predicates.in(in));
      }
      if (e instanceof Expr.Like l) {
        return field(l.operand().field(), Predicates.like(l));
      }
      if (e instanceof Expr.IsNull n) {
        return field(n.field(), Predicates.isNull());
      }
      if (e instanceof Expr.Exists x) {
        return field(x.field(), Predicates.exists());
      }
      if (e instanceof Expr.HasToken h) {
        return field(h.field(), Predicates.hasToken(h.token()));
      }
      Expr.Contains c = (Expr.Contains) e;
      return field(c.field(), Predicates.contains(c.text(), c.caseInsensitive()));
    }

    /**
     * An OR whose leaves test one field several times ({@code SeverityText:(warn OR error)}) tests
     * it once, with a predicate true where any of theirs is: the field's dictionary or index is
     * read once, and no candidates are narrowed between the leaves.
     */
    private static Filter or(List<Filter> children) {
      Map<String, List<Filter.Field>> byField = new LinkedHashMap<>();
      for (Filter f : children) {
        if (f instanceof Filter.Field leaf) {
          byField.computeIfAbsent(leaf.field(), k -> new ArrayList<>()).add(leaf);
        }
      }
      List<Filter> out = new ArrayList<>();
      for (Filter f : children) {
        if (!(f instanceof Filter.Field leaf)) {
          out.add(f);
        } else if (byField.get(leaf.field()).get(0) == leaf) {
          out.add(Filter.Field.anyOf(byField.get(leaf.field()))); // where the field's first was
        }
      }
      return out.size() == 1 ? out.get(0) : new Filter.Or(out);
    }

    private List<Filter> children(List<Expr> operands) {
      List<Filter> out = new ArrayList<>();
      for (Expr e : operands) {
        out.add(compile(e));
      }
      return out;
    }

    private Filter text(Filter.Text.Kind kind, String text) {
      if (implicitColumn == null) {
        throw InvalidQueryException.noImplicitColumn(path, text);
      }
      return new Filter.Text(implicitColumn, kind, text);
    }

    private Filter field(String name, ValuePredicate p) {
      ColumnType type = schema.column(name).map(Schema.Column::type).orElse(null);
      int rank = type == null ? 0 : type == ColumnType.STRING || type == ColumnType.BOOL ? 2 : 5;
      return new Filter.Field(name, p, rank);
    }
  }
}
