package dev.chartwell.engine.internal.search;

import dev.chartwell.engine.InvalidQueryException;
import dev.chartwell.engine.QueryControl;
import dev.chartwell.engine.SearchOrder;
import dev.chartwell.engine.SearchQuery;
import dev.chartwell.engine.SearchResult;
import dev.chartwell.engine.internal.filter.Filter;
import dev.chartwell.engine.internal.filter.FilterCompiler;
import dev.chartwell.engine.internal.query.Languages;
import dev.chartwell.engine.internal.segment.Segment;
import dev.chartwell.engine.internal.source.Schema;
import dev.chartwell.engine.internal.source.SourceCore;
import dev.chartwell.engine.internal.source.SourceSnapshot;
import dev.chartwell.parser.Expr;
import dev.chartwell.parser.WhereParser;
import dev.chartwell.parser.WhereSyntaxException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import org.roaringbitmap.IntIterator;
import org.roaringbitmap.buffer.ImmutableRoaringBitmap;
import org.roaringbitmap.buffer.MutableRoaringBitmap;

/**
 * Runs a {@link SearchQuery} over a consistent snapshot of its source.
 *
 * <p>Segments are visited in the search's order of their time ranges (latest end first for newest
 * first). A bounded heap keeps the best {@code offset + limit} events met so far; once it is full,
 * a segment whose whole range is older (newer) than the worst kept event is not opened, nor is any
 * after it. Within a segment, rows are in time order, so the query range is a row range found by
 * binary search, the where turns it into a bitmap of matching rows (from indexes where it can), and
 * the matching rows are walked from the search's end, stopping at the first that cannot enter the
 * heap. Only the events of the returned page are read column by column.
 */
public final class EventSearch {
  /** Heap bytes one kept event costs, claimed against the query's memory budget. */
  static final long ENTRY_BYTES = 48;

  /** Bytes one returned value costs, claimed against the budget before the page is read. */
  static final long VALUE_BYTES = 64;

  private static final int CHECK_EVERY = 1024;

  private EventSearch() {}

  /**
   * @param source the source
   * @param q the search
   * @param useIndexes whether the where may be answered from indexes (results do not depend on it)
   * @param control the query's control (checkpoints, memory budget)
   * @return the page of events
   * @throws InvalidQueryException when the query is invalid or its where does not parse
   */
  public static SearchResult run(
      SourceCore source, SearchQuery q, boolean useIndexes, QueryControl control) {
    validate(q);
    try (SourceSnapshot snapshot = source.snapshot()) {
      Filter filter = compile(q, snapshot.schema(), source.spec().implicitColumn());
      boolean newest = q.order() == SearchOrder.NEWEST_FIRST;
      List<Segment> segments = new ArrayList<>();
      for (Segment s : snapshot.segments()) {
        if (s.rows() > 0 && s.maxTimestamp() >= q.startTime() && s.minTimestamp() <= q.endTime()) {
          segments.add(s);
        }
      }
      segments.sort(
          newest
              ? Comparator.comparingLong(Segment::maxTimestamp).reversed()
              : Comparator.comparingLong(Segment::minTimestamp));
      Page page = new Page(q.offset() + q.limit(), newest, control);
      for (Segment segment : segments) {
        control.checkpoint();
        if (page.full()
            && !page.mayHold(newest ? segment.maxTimestamp() : segment.minTimestamp())) {
          break; // segments come in order: none after this one holds a better event either
        }
        if (segment.verify() != null) {
          continue; // its file is damaged: never read (its source reports and quarantines it)
        }
        collect(segment, filter, q, useIndexes, page, control);
      }
      List<Hit> hits = page.ordered();
      List<String> columns =
          q.columns() != null ? q.columns() : allColumns(source.spec().timestampColumn(), snapshot);
      return new SearchResult(
          source.spec().timestampColumn(),
          columns,
          read(
              hits.subList(Math.min(q.offset(), hits.size()), hits.size()),
              columns,
              source,
              control));
    }
  }

  /**
   * The rules of a search that do not depend on data (every backend refuses the same searches).
   *
   * @param q a search
   * @throws InvalidQueryException listing every problem, each with its field path
   */
  public static void validate(SearchQuery q) {
    List<String> problems = new ArrayList<>();
    if (q.startTime() > q.endTime()) {
      problems.add("endTime: must not be before startTime");
    }
    if (q.limit() < 1 || q.limit() > SearchQuery.MAX_LIMIT) {
      problems.add("limit: must be from 1 to " + SearchQuery.MAX_LIMIT);
    }
    if (q.offset() < 0 || q.offset() > SearchQuery.MAX_OFFSET) {
      problems.add("offset: must be from 0 to " + SearchQuery.MAX_OFFSET);
    }
    if (!problems.isEmpty()) {
      throw new InvalidQueryException(problems);
    }
  }

  private static Filter compile(SearchQuery q, Schema schema, String implicitColumn) {
    Expr where;
    try {
      where =
          q.where() == null || q.where().isBlank()
              ? new Expr.MatchAll()
              : WhereParser.parse(q.where(), Languages.parser(q.whereLanguage()));
    } catch (WhereSyntaxException e) {
      throw new InvalidQueryException("where: " + e.getMessage());
    }
    return FilterCompiler.compile(where, schema, implicitColumn, "where");
  }

  /** Offers the segment's matching rows of the range to the page, from the search's end. */
  private static void collect(
      Segment segment,
      Filter filter,
      SearchQuery q,
      boolean useIndexes,
      Page page,
      QueryControl control) {
    int lo = segment.firstRowAtOrAfter(q.startTime());
    int hi =
        q.endTime() == Long.MAX_VALUE ? segment.rows() : segment.firstRowAtOrAfter(q.endTime() + 1);
    if (lo >= hi) {
      return;
    }
    ImmutableRoaringBitmap matched =
        filter.matchesAll()
            ? null
            : filter.apply(
                segment, MutableRoaringBitmap.bitmapOfRange(lo, hi), useIndexes, control);
    boolean newest = page.newest;
    IntIterator rows =
        matched == null
            ? null
            : newest ? matched.getReverseIntIterator() : matched.getIntIterator();
    int next = newest ? hi - 1 : lo;
    for (int seen = 0; ; seen++) {
      if ((seen & (CHECK_EVERY - 1)) == 0) {
        control.checkpoint();
      }
      int row;
      if (rows != null) {
        if (!rows.hasNext()) {
          return;
        }
        row = rows.next();
      } else {
        if (newest ? next < lo : next >= hi) {
          return;
        }
        row = newest ? next-- : next++;
      }
      if (!page.offer(segment, row)) {
        return; // rows come in order: none after this one enters either
      }
    }
  }

  private static List<String> allColumns(String timestampColumn, SourceSnapshot snapshot) {
    List<String> columns = new ArrayList<>();
    columns.add(timestampColumn);
    for (Schema.Column c : snapshot.schema().columns()) {
      columns.add(c.name());
    }
    return columns;
  }

  private static List<Map<String, Object>> read(
      List<Hit> hits, List<String> columns, SourceCore source, QueryControl control) {
    control.claim((long) hits.size() * columns.size() * VALUE_BYTES);
    String timestampColumn = source.spec().timestampColumn();
    List<Map<String, Object>> rows = new ArrayList<>(hits.size());
    for (Hit h : hits) {
      control.checkpoint();
      Map<String, Object> values = new LinkedHashMap<>();
      for (String c : columns) {
        values.put(
            c,
            c.equals(timestampColumn)
                ? (Object) h.timestamp()
                : ColumnValues.read(h.segment(), c, h.row()));
      }
      rows.add(values);
    }
    return rows;
  }

  /**
   * One matching event: its timestamp, segment and row. Events are ordered by timestamp, then by
   * segment id and row (the order they were appended in).
   */
  record Hit(long timestamp, Segment segment, int row) {
    static final Comparator<Hit> OLDEST_FIRST =
        Comparator.comparingLong(Hit::timestamp)
            .thenComparingLong(h -> h.segment().id())
            .thenComparingInt(Hit::row);
  }

  /**
   * The best {@code size} events met so far: a heap whose head is the worst of them, so that a
   * better event replaces it.
   */
  private static final class Page {
    private final int size;
    private final boolean newest;
    private final Comparator<Hit> better;
    private final PriorityQueue<Hit> heap;
    private final QueryControl control;

    Page(int size, boolean newest, QueryControl control) {
      this.size = size;
      this.newest = newest;
      this.better = newest ? Hit.OLDEST_FIRST : Hit.OLDEST_FIRST.reversed();
      // The head is the worst kept event: the oldest when newest first.
      this.heap = new PriorityQueue<>(Math.min(size, 1024), better);
      this.control = control;
    }

    boolean full() {
      return heap.size() == size;
    }

    /** Whether an event at {@code timestamp} may still be better than the worst kept one. */
    boolean mayHold(long timestamp) {
      long worst = heap.peek().timestamp();
      return newest ? timestamp >= worst : timestamp <= worst;
    }

    /**
     * @return whether the event entered (else no event after it in the search's order can)
     */
    boolean offer(Segment segment, int row) {
      Hit h = new Hit(segment.timestamp(row), segment, row);
      if (heap.size() < size) {
        control.claim(ENTRY_BYTES);
        heap.add(h);
        return true;
      }
      if (better.compare(h, heap.peek()) <= 0) {
        return false;
      }
      heap.poll();
      heap.add(h);
      return true;
    }

    /** The kept events, best first. */
    List<Hit> ordered() {
      List<Hit> all = new ArrayList<>(heap);
      all.sort(better.reversed());
      return all;
    }
  }
}
