package dev.chartwell.parser;

import dev.chartwell.parser.Expr.Compare;
import dev.chartwell.parser.Expr.CompareOp;
import dev.chartwell.parser.Expr.Operand;
import dev.chartwell.parser.LuceneParser.AndQueryContext;
import dev.chartwell.parser.LuceneParser.BareTermContext;
import dev.chartwell.parser.LuceneParser.BoundContext;
import dev.chartwell.parser.LuceneParser.FieldAtomContext;
import dev.chartwell.parser.LuceneParser.FieldClauseContext;
import dev.chartwell.parser.LuceneParser.FieldGroupContext;
import dev.chartwell.parser.LuceneParser.NotQueryContext;
import dev.chartwell.parser.LuceneParser.OrQueryContext;
import dev.chartwell.parser.LuceneParser.PrimaryContext;
import dev.chartwell.parser.LuceneParser.RangeContext;
import dev.chartwell.parser.LuceneParser.ValueAndContext;
import dev.chartwell.parser.LuceneParser.ValueAtomContext;
import dev.chartwell.parser.LuceneParser.ValueNotContext;
import dev.chartwell.parser.LuceneParser.ValueOrContext;
import dev.chartwell.parser.LuceneParser.WordContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.Token;

/** Turns a Lucene parse tree into an {@link Expr}, giving each kind of term its meaning. */
final class LuceneAstBuilder {
  private LuceneAstBuilder() {}

  static Expr build(LuceneParser.QueryContext query) {
    return query.orQuery() == null ? new Expr.MatchAll() : orQuery(query.orQuery());
  }

  private static Expr orQuery(OrQueryContext ctx) {
    List<Expr> parts = new ArrayList<>();
    for (AndQueryContext a : ctx.andQuery()) {
      List<Expr> conj = new ArrayList<>();
      for (NotQueryContext n : a.notQuery()) {
        conj.add(notQuery(n));
      }
      parts.add(Expr.and(conj));
    }
    return Expr.or(parts);
  }

  private static Expr notQuery(NotQueryContext ctx) {
    if (ctx instanceof LuceneParser.NegatedContext n) {
      return new Expr.Not(notQuery(n.notQuery()));
    }
    if (ctx instanceof LuceneParser.RequiredContext r) {
      return notQuery(r.notQuery());
    }
    return primary(((LuceneParser.PlainContext) ctx).primary());
  }

  private static Expr primary(PrimaryContext ctx) {
    if (ctx instanceof LuceneParser.GroupContext g) {
      return orQuery(g.orQuery());
    }
    if (ctx instanceof LuceneParser.FieldClauseContext f) {
      return fieldClause(f);
    }
    return bareTerm(((LuceneParser.BareContext) ctx).bareTerm());
  }

  private static Expr bareTerm(BareTermContext ctx) {
    if (ctx.QUOTED() != null) {
      return textSearch(unquote(ctx.QUOTED().getText()));
    }
    Word w = Word.of(ctx.word());
    if (w.isStar()) {
      return new Expr.MatchAll();
    }
    if (w.hasWildcard()) {
      return new Expr.TokenPattern(w.likePattern().toLowerCase(Locale.ROOT));
    }
    return textSearch(w.text());
  }

  private static Expr textSearch(String text) {
    String lower = text.toLowerCase(Locale.ROOT);
    return Tokens.isSingleToken(lower) ? new Expr.Token(lower) : new Expr.Phrase(lower);
  }

  private static Expr fieldClause(FieldClauseContext ctx) {
    Token fieldToken = ctx.field().TERM().getSymbol();
    Word fieldWord = Word.raw(fieldToken.getText());
    if (fieldWord.isStar()
        && ctx.fieldValue() instanceof FieldAtomContext atom
        && atom.valueAtom() instanceof LuceneParser.WordValueContext wv
        && wv.MINUS() == null
        && Word.of(wv.word()).isStar()) {
      return new Expr.MatchAll(); // *:*
    }
    if (fieldWord.hasWildcard()) {
      throw error(fieldToken, "field names cannot contain the wildcard '*'");
    }
    String field = fieldWord.text();
    if (ctx.fieldValue() instanceof FieldGroupContext group) {
      return valueOr(field, group.valueOr());
    }
    return valueAtom(field, ((FieldAtomContext) ctx.fieldValue()).valueAtom());
  }

  private static Expr valueOr(String field, ValueOrContext ctx) {
    List<Expr> parts = new ArrayList<>();
    for (ValueAndContext a : ctx.valueAnd()) {
      List<Expr> conj = new ArrayList<>();
      for (ValueNotContext n : a.valueNot()) {
        conj.add(valueNot(field, n));
      }
      parts.add(Expr.and(conj));
    }
    return Expr.or(parts);
  }

  private static Expr valueNot(String field, ValueNotContext ctx) {
    if (ctx instanceof LuceneParser.ValueNegatedContext n) {
      return new Expr.Not(valueNot(field, n.valueNot()));
    }
    if (ctx instanceof LuceneParser.ValueRequiredContext r) {
      return valueNot(field, r.valueNot());
    }
    if (ctx instanceof LuceneParser.ValueGroupContext g) {
      return valueOr(field, g.valueOr());
    }
    return valueAtom(field, ((LuceneParser.ValuePlainContext) ctx).valueAtom());
  }

  private static Expr valueAtom(String field, ValueAtomContext ctx) {
    if (ctx instanceof LuceneParser.RangeValueContext r) {
      return range(field, r.range());
    }
    if (ctx instanceof LuceneParser.CompareValueContext c) {
      String value = bound(c.bound());
      if (value == null) {
        throw error(c.bound().getStart(), "'*' is not a value to compare with");
      }
      CompareOp op =
          switch (c.comparator().getText()) {
            case ">" -> CompareOp.GT;
            case ">=" -> CompareOp.GE;
            case "<" -> CompareOp.LT;
            default -> CompareOp.LE;
          };
      return new Compare(Operand.of(field), op, value);
    }
    if (ctx instanceof LuceneParser.QuotedValueContext q) {
      return new Compare(Operand.of(field), CompareOp.EQ, unquote(q.QUOTED().getText()));
    }
    LuceneParser.WordValueContext wv = (LuceneParser.WordValueContext) ctx;
    Word w = Word.of(wv.word());
    String minus = wv.MINUS() == null ? "" : "-";
    if (w.isStar() && minus.isEmpty()) {
      return new Expr.Exists(field);
    }
    if (w.hasWildcard()) {
      return new Expr.Like(Operand.of(field), minus + w.likePattern(), true);
    }
    return new Expr.Match(field, minus + w.text());
  }

  private static Expr range(String field, RangeContext ctx) {
    String lo = bound(ctx.lo);
    String hi = bound(ctx.hi);
    boolean loIncl = ctx.open.getType() == LuceneParser.LBRACKET;
    boolean hiIncl = ctx.close.getType() == LuceneParser.RBRACKET;
    Operand operand = Operand.of(field);
    if (lo == null && hi == null) {
      return new Expr.Not(new Expr.IsNull(field));
    }
    if (lo == null) {
      return new Compare(operand, hiIncl ? CompareOp.LE : CompareOp.LT, hi);
    }
    if (hi == null) {
      return new Compare(operand, loIncl ? CompareOp.GE : CompareOp.GT, lo);
    }
    return new Expr.Range(operand, lo, loIncl, hi, hiIncl);
  }

  /** A range or comparison bound; {@code null} for the open end {@code *}. */
  private static String bound(BoundContext ctx) {
    if (ctx.QUOTED() != null) {
      return unquote(ctx.QUOTED().getText());
    }
    Word w = Word.of(ctx.word());
    if (ctx.MINUS() == null && w.isStar()) {
      return null;
    }
    if (w.hasWildcard()) {
      throw error(ctx.getStart(), "wildcards are not allowed in range or comparison bounds");
    }
    return (ctx.MINUS() == null ? "" : "-") + w.text();
  }

  /** Removes the quotes of a quoted phrase and resolves its backslash escapes. */
  static String unquote(String quoted) {
    StringBuilder sb = new StringBuilder(quoted.length());
    for (int i = 1; i < quoted.length() - 1; i++) {
      char c = quoted.charAt(i);
      if (c == '\\' && i + 1 < quoted.length() - 1) {
        c = quoted.charAt(++i);
      }
      sb.append(c);
    }
    return sb.toString();
  }

  static WhereSyntaxException error(Token at, String reason) {
    return new WhereSyntaxException(reason, at.getLine(), at.getCharPositionInLine() + 1);
  }

  static WhereSyntaxException error(ParserRuleContext at, String reason) {
    return error(at.getStart(), reason);
  }

  /**
   * An unquoted term: its text with escapes resolved, and the same as a {@code LIKE} pattern where
   * each unescaped {@code *} is a wildcard.
   */
  private record Word(String text, String likePattern, boolean hasWildcard) {
    static Word of(WordContext ctx) {
      return ctx.TERM() != null
          ? raw(ctx.getText())
          : new Word(ctx.getText(), escapeLike(ctx.getText()), false);
    }

    static Word raw(String raw) {
      StringBuilder text = new StringBuilder(raw.length());
      StringBuilder like = new StringBuilder(raw.length() + 4);
      boolean wildcard = false;
      for (int i = 0; i < raw.length(); i++) {
        char c = raw.charAt(i);
        if (c == '\\' && i + 1 < raw.length()) {
          c = raw.charAt(++i);
          text.append(c);
          like.append(escapeLike(String.valueOf(c)));
        } else if (c == '*') {
          wildcard = true;
          text.append(c);
          like.append('%');
        } else {
          text.append(c);
          like.append(escapeLike(String.valueOf(c)));
        }
      }
      return new Word(text.toString(), like.toString(), wildcard);
    }

    /** The unescaped {@code *} alone. */
    boolean isStar() {
      return hasWildcard && likePattern.equals("%");
    }

    static String escapeLike(String s) {
      StringBuilder sb = new StringBuilder(s.length());
      for (int i = 0; i < s.length(); i++) {
        char c = s.charAt(i);
        if (c == '%' || c == '_' || c == '\\') {
          sb.append('\\');
        }
        sb.append(c);
      }
      return sb.toString();
    }
  }
}
