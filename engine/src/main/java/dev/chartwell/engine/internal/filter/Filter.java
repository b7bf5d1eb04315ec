package dev.chartwell.engine.internal.filter;

import dev.chartwell.engine.QueryControl;
import dev.chartwell.engine.internal.segment.BoolColumn;
import dev.chartwell.engine.internal.segment.Column;
import dev.chartwell.engine.internal.segment.DoubleColumn;
import dev.chartwell.engine.internal.segment.LongColumn;
import dev.chartwell.engine.internal.segment.Segment;
import dev.chartwell.engine.internal.segment.StringColumn;
import dev.chartwell.engine.internal.segment.StringDictionary;
import dev.chartwell.engine.internal.segment.TokenIndex;
import dev.chartwell.parser.Tokens;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import org.roaringbitmap.IntIterator;
import org.roaringbitmap.buffer.ImmutableRoaringBitmap;
import org.roaringbitmap.buffer.MutableRoaringBitmap;

/**
 * A compiled {@code where}, bound once per query (like Lucene's Weight) and applied per segment.
 * {@link #apply} narrows a set of candidate rows to those that match. Leaves answer from indexes
 * (dictionary entries evaluated once and their rows OR-ed, the token index, boolean bitmaps) or
 * scan the candidates, whichever costs less; zone maps skip numeric columns that cannot match.
 * {@code AND} applies its children cheapest first, each to the rows the previous ones left. Loops
 * over rows and dictionary entries stop at the query's checkpoints every {@value #CHECK_EVERY}
 * iterations.
 */
public abstract class Filter {
  /** Iterations of a row or dictionary loop between two checkpoints (a power of two). */
  static final int CHECK_EVERY = 1024;

  Filter() {}

  /**
   * @param segment the segment
   * @param candidates rows to consider (not modified)
   * @param useIndexes whether indexes and zone maps may be used; {@code false} tests row by row
   * @param control the query's control, looked at in every long loop
   * @return the candidates that match
   */
  public abstract ImmutableRoaringBitmap apply(
      Segment segment, ImmutableRoaringBitmap candidates, boolean useIndexes, QueryControl control);

  /**
   * @return whether every event matches, so that no filtering is needed at all
   */
  public boolean matchesAll() {
    return false;
  }

  /** Relative cost, for ordering the children of AND: index lookups before row scans. */
  abstract int rank();

  static final class MatchAll extends Filter {
    @Override
    public ImmutableRoaringBitmap apply(
        Segment s, ImmutableRoaringBitmap candidates, boolean idx, QueryControl control) {
      return candidates;
    }

    @Override
    public boolean matchesAll() {
      return true;
    }

    @Override
    int rank() {
      return 0;
    }
  }

  static final class And extends Filter {
    private final List<Filter> children;

    And(List<Filter> children) {
      List<Filter> sorted = new ArrayList<>(children);
      sorted.sort(Comparator.comparingInt(Filter::rank));
      this.children = List.copyOf(sorted);
    }

    @Override
    public ImmutableRoaringBitmap apply(
        Segment s, ImmutableRoaringBitmap candidates, boolean idx, QueryControl control) {
      ImmutableRoaringBitmap rows = null;
      for (Filter f : children) {
        rows = f.apply(s, rows == null ? candidates : rows, idx, control);
        if (rows.isEmpty()) {
          break;
        }
      }
      return rows;
    }

    @Override
    int rank() {
      return children.stream().mapToInt(Filter::rank).min().orElse(0);
    }
  }

  static final class Or extends Filter {
    private final List<Filter> children;

    Or(List<Filter> children) {
      this.children = List.copyOf(children);
    }

    @Override
    public ImmutableRoaringBitmap apply(
        Segment s, ImmutableRoaringBitmap candidates, boolean idx, QueryControl control) {
      // Each child looks only at the candidates no earlier child matched. That set is made anew
      // from the candidates (word by word), not by clearing matched rows one at a time.
      MutableRoaringBitmap matched = null;
      for (Filter f : children) {
        ImmutableRoaringBitmap remaining =
            matched == null ? candidates : ImmutableRoaringBitmap.andNot(candidates, matched);
        if (remaining.isEmpty()) {
          break;
        }
        ImmutableRoaringBitmap m = f.apply(s, remaining, idx, control);
        if (matched == null) {
          matched = m.toMutableRoaringBitmap();
        } else {
          matched.or(m);
        }
      }
      return matched == null ? new MutableRoaringBitmap() : matched;
    }

    @Override
    int rank() {
      return children.stream().mapToInt(Filter::rank).max().orElse(0);
    }
  }

  static final class Not extends Filter {
    private final Filter child;

    Not(Filter child) {
      this.child = child;
    }

    @Override
    public ImmutableRoaringBitmap apply(
        Segment s, ImmutableRoaringBitmap candidates, boolean idx, QueryControl control) {
      MutableRoaringBitmap out = candidates.toMutableRoaringBitmap();
      out.andNot(child.apply(s, candidates, idx, control));
      return out;
    }

    @Override
    int rank() {
      return child.rank();
    }
  }

  /** A predicate on one field's value. */
  static final class Field extends Filter {
    private final String field;
    private final ValuePredicate predicate;
    private final int rank;

    Field(String field, ValuePredicate predicate, int rank) {
      this.field = field;
      this.predicate = predicate;
      this.rank = rank;
    }

    /**
     * @param leaves leaves on one field
     * @return one leaf on that field that matches where any of them does (the leaf itself when
     *     there is one)
     */
    static Field anyOf(List<Field> leaves) {
      if (leaves.size() == 1) {
        return leaves.get(0);
      }
      List<ValuePredicate> predicates = new ArrayList<>();
      int rank = 0;
      for (Field leaf : leaves) {
        predicates.add(leaf.predicate);
        rank = Math.max(rank, leaf.rank);
      }
      return new Field(leaves.get(0).field, Predicates.any(predicates), rank);
    }

    /**
     * @return the field this leaf tests
     */
    String field() {
      return field;
    }

    @Override
    int rank() {
      return rank;
    }

    @Override
    public ImmutableRoaringBitmap apply(
        Segment s, ImmutableRoaringBitmap candidates, boolean idx, QueryControl control) {
      Column column = s.column(field);
      if (column == null) {
        return predicate.onAbsent()
            ? candidates.toMutableRoaringBitmap()
            : new MutableRoaringBitmap();
      }
      if (column instanceof StringColumn c) {
        return strings(c, predicate, candidates, idx, control);
      }
      if (column instanceof BoolColumn b && idx) {
        MutableRoaringBitmap out = new MutableRoaringBitmap();
        if (predicate.onBool(true)) {
          out.or(b.trueRows());
        }
        if (predicate.onBool(false)) {
          out.or(b.falseRows());
        }
        return withAbsent(out, column, candidates);
      }
      if (idx && column instanceof LongColumn l && !predicate.mayMatchLongs(l.min(), l.max())) {
        return withAbsent(new MutableRoaringBitmap(), column, candidates);
      }
      if (idx && column instanceof LongColumn l && l.index() != null) {
        LongColumn.ValueIndex index = l.index();
        List<ImmutableRoaringBitmap> parts = new ArrayList<>();
        for (int i = 0; i < index.values().capacity(); i++) {
          if (predicate.onLong(index.values().get(i))) {
            parts.add(index.postings().get(i));
          }
        }
        return fromPostings(parts, column, candidates, predicate.onAbsent());
      }
      if (idx && column instanceof DoubleColumn d && !predicate.mayMatchDoubles(d.min(), d.max())) {
        return withAbsent(new MutableRoaringBitmap(), column, candidates);
      }
      return scan(column, candidates, control);
    }

    /**
     * The index result (over the whole segment) limited to candidates, plus absent rows if wanted.
     */
    private MutableRoaringBitmap withAbsent(
        MutableRoaringBitmap matches, Column column, ImmutableRoaringBitmap candidates) {
      if (predicate.onAbsent() && column.presence() != null) {
        MutableRoaringBitmap absent = candidates.toMutableRoaringBitmap();
        absent.andNot(column.presence());
        matches.or(absent);
      }
      matches.and(candidates);
      return matches;
    }

    private ImmutableRoaringBitmap scan(
        Column column, ImmutableRoaringBitmap candidates, QueryControl control) {
      MutableRoaringBitmap out = new MutableRoaringBitmap();
      boolean absentMatches = predicate.onAbsent();
      IntIterator it = candidates.getIntIterator();
      int seen = 0;
      if (column instanceof LongColumn l) {
        while (it.hasNext()) {
          checkEvery(++seen, control);
          int row = it.next();
          if (l.isPresent(row) ? predicate.onLong(l.get(row)) : absentMatches) {
            out.add(row);
          }
        }
      } else if (column instanceof DoubleColumn d) {
        while (it.hasNext()) {
          checkEvery(++seen, control);
          int row = it.next();
          if (d.isPresent(row) ? predicate.onDouble(d.get(row)) : absentMatches) {
            out.add(row);
          }
        }
      } else {
        BoolColumn b = (BoolColumn) column;
        while (it.hasNext()) {
          checkEvery(++seen, control);
          int row = it.next();
          if (b.isPresent(row) ? predicate.onBool(b.get(row)) : absentMatches) {
            out.add(row);
          }
        }
      }
      return out;
    }
  }

  /**
   * Evaluates a predicate on a string column: with indexes, once per dictionary entry (OR-ing the
   * rows of the entries that match) or, when there are fewer candidates than entries or the column
   * keeps no posting lists (every value one row), once per entry met among the candidates; without
   * indexes, on every candidate row's text.
   */
  static ImmutableRoaringBitmap strings(
      StringColumn c,
      ValuePredicate p,
      ImmutableRoaringBitmap candidates,
      boolean idx,
      QueryControl control) {
    StringDictionary dict = c.dictionary();
    boolean absentMatches = p.onAbsent();
    MutableRoaringBitmap out = new MutableRoaringBitmap();
    if (idx && c.postings() != null && dict.size() <= candidates.getCardinality()) {
      List<ImmutableRoaringBitmap> parts = new ArrayList<>();
      Iterator<String> values = dict.iterator();
      for (int id = 0; id < dict.size(); id++) {
        checkEvery(id + 1, control);
        if (p.onString(values.next())) {
          parts.add(c.rows(id));
        }
      }
      return fromPostings(parts, c, candidates, absentMatches);
    }
    byte[] memo = idx ? new byte[dict.size()] : null; // 0 unknown, 1 match, 2 no match
    IntIterator it = candidates.getIntIterator();
    int seen = 0;
    while (it.hasNext()) {
      checkEvery(++seen, control);
      int row = it.next();
      int id = c.id(row);
      boolean match;
      if (id < 0) {
        match = absentMatches;
      } else if (memo == null) {
        match = p.onString(dict.get(id));
      } else {
        if (memo[id] == 0) {
          memo[id] = (byte) (p.onString(dict.get(id)) ? 1 : 2);
        }
        match = memo[id] == 1;
      }
      if (match) {
        out.add(row);
      }
    }
    return out;
  }

  /** Looks at the query's control once every {@link #CHECK_EVERY} iterations. */
  static void checkEvery(int iteration, QueryControl control) {
    if ((iteration & (CHECK_EVERY - 1)) == 0) {
      control.checkpoint();
    }
  }

  /**
   * The rows of the matching values (plus absent rows when they match), limited to the candidates;
   * one value over a whole segment is returned as is, without copying.
   */
  static ImmutableRoaringBitmap fromPostings(
      List<ImmutableRoaringBitmap> parts,
      Column column,
      ImmutableRoaringBitmap candidates,
      boolean absentMatches) {
    boolean whole = coversSegment(candidates, column);
    if (parts.size() == 1 && whole && (!absentMatches || column.presence() == null)) {
      return parts.get(0);
    }
    MutableRoaringBitmap out;
    if (whole) {
      out = ImmutableRoaringBitmap.or(parts.iterator());
    } else if (parts.size() == 1) {
      out = ImmutableRoaringBitmap.and(parts.get(0), candidates);
    } else {
      // Intersect each value's rows with the candidates first: the union stays small.
      out = new MutableRoaringBitmap();
      for (ImmutableRoaringBitmap part : parts) {
        out.or(ImmutableRoaringBitmap.and(part, candidates));
      }
    }
    if (absentMatches && column.presence() != null) {
      MutableRoaringBitmap absent = candidates.toMutableRoaringBitmap();
      absent.andNot(column.presence());
      out.or(absent);
    }
    return out;
  }

  /** Whether the candidates are every row of the segment (so intersecting with them is a no-op). */
  static boolean coversSegment(ImmutableRoaringBitmap candidates, Column column) {
    int rows = segmentRows(column);
    return rows >= 0
        && candidates.getCardinality() == rows
        && (rows == 0 || (candidates.first() == 0 && candidates.last() == rows - 1));
  }

  private static int segmentRows(Column column) {
    if (column instanceof StringColumn s) {
      return s.ordinals().size();
    }
    if (column instanceof LongColumn l) {
      return l.values().size();
    }
    if (column instanceof DoubleColumn d) {
      return d.values().capacity();
    }
    return ((BoolColumn) column).rows();
  }

  /** Bare terms, phrases and wildcards on the implicit column, through its token index. */
  static final class Text extends Filter {
    /** A segment of at most this many rows whose token index is not built yet is read instead. */
    static final int READ_UNINDEXED_ROWS = 65_536;

    /**
     * How many queries read such a segment before one builds its index. A tail that ingestion
     * replaces sooner is never indexed; one that stays (a 38,528-row tail of {@code bench-logs}
     * took about 6 ms a query to read for a bare term) is read this many times, then indexed once.
     */
    static final int READS_BEFORE_INDEXING = 4;

    enum Kind {
      TOKEN,
      PHRASE,
      PATTERN
    }

    private final String implicitColumn;
    private final Kind kind;
    private final String text;
    private final ValuePredicate predicate;

    Text(String implicitColumn, Kind kind, String text) {
      this.implicitColumn = implicitColumn;
      this.kind = kind;
      this.text = text;
      this.predicate =
          switch (kind) {
            case TOKEN -> Predicates.token(text);
            case PHRASE -> Predicates.phrase(text);
            case PATTERN -> Predicates.tokenPattern(text);
          };
    }

    @Override
    int rank() {
      return kind == Kind.TOKEN ? 1 : kind == Kind.PHRASE ? 3 : 4;
    }

    @Override
    public ImmutableRoaringBitmap apply(
        Segment s, ImmutableRoaringBitmap candidates, boolean idx, QueryControl control) {
      Column column = s.column(implicitColumn);
      if (!(column instanceof StringColumn c)) {
        return new MutableRoaringBitmap();
      }
      // A head's newest part has its token index built only when asked: a few rows are read
      // faster than they are indexed, until the part has been read a few times.
      if (!idx || s.readUnindexed(READ_UNINDEXED_ROWS, READS_BEFORE_INDEXING)) {
        return strings(c, predicate, candidates, idx, control);
      }
      TokenIndex index = s.tokenIndex();
      if (index == null) {
        return strings(c, predicate, candidates, true, control);
      }
      switch (kind) {
        case TOKEN -> {
          return coversSegment(candidates, c)
              ? index.rows(text)
              : ImmutableRoaringBitmap.and(index.rows(text), candidates);
        }
        case PATTERN -> {
          LikeMatcher m = Predicates.tokenMatcher(text);
          List<ImmutableRoaringBitmap> parts = new ArrayList<>();
          Iterator<String> tokens = index.tokens().iterator();
          for (int id = 0; id < index.tokens().size(); id++) {
            checkEvery(id + 1, control);
            if (m.matches(tokens.next())) {
              parts.add(index.postings().get(id));
            }
          }
          MutableRoaringBitmap out = ImmutableRoaringBitmap.or(parts.iterator());
          out.and(candidates);
          return out;
        }
        default -> {
          MutableRoaringBitmap narrowed = candidates.toMutableRoaringBitmap();
          for (String token : new LinkedHashSet<>(Tokens.lowerCaseTokens(text))) {
            narrowed.and(index.rows(token));
            if (narrowed.isEmpty()) {
              return narrowed;
            }
          }
          return strings(c, predicate, narrowed, true, control);
        }
      }
    }
  }
}
