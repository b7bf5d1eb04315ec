package dev.chartwell.clickhouse;

import dev.chartwell.engine.ChartQuery;
import dev.chartwell.engine.ChartResult;
import dev.chartwell.engine.InvalidQueryException;
import dev.chartwell.engine.QueryAbortedException;
import dev.chartwell.engine.QueryControl;
import dev.chartwell.engine.QueryOptions;
import dev.chartwell.engine.SearchQuery;
import dev.chartwell.engine.SearchResult;
import dev.chartwell.engine.Series;
import dev.chartwell.engine.UnknownSourceException;
import dev.chartwell.engine.internal.exec.QueryValidator;
import dev.chartwell.engine.internal.query.Backend;
import dev.chartwell.engine.internal.query.Languages;
import dev.chartwell.engine.internal.search.EventSearch;
import dev.chartwell.parser.Expr;
import dev.chartwell.parser.WhereLanguage;
import dev.chartwell.parser.WhereParser;
import dev.chartwell.parser.WhereSyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * The {@link Backend} of sources that read a ClickHouse table: a chart query becomes one statement
 * per server its series read (one round trip when they share a connection, the usual case), a
 * search one {@code SELECT}; results are the engine's records, checked by the same validators and
 * limits, so the server renders them with the code it renders the engine's with.
 */
public final class ClickHouseBackend implements Backend {
  /**
   * A source as this backend reads it.
   *
   * @param client the server
   * @param table the table
   */
  public record Bound(ClickHouseClient client, ClickHouseTable table) {}

  private final Function<String, Optional<Bound>> sources;

  /**
   * @param sources finds a source by the id the queries name it by
   */
  public ClickHouseBackend(Function<String, Optional<Bound>> sources) {
    this.sources = sources;
  }

  @Override
  public ChartResult query(ChartQuery query, QueryOptions options) {
    QueryValidator.validate(query);
    List<String> problems = new ArrayList<>();
    List<ClickHouseTable> tables = new ArrayList<>();
    List<String> wheres = new ArrayList<>();
    Map<ClickHouseClient, List<Integer>> byServer = new IdentityHashMap<>();
    List<ClickHouseClient> order = new ArrayList<>();
    for (int i = 0; i < query.series().size(); i++) {
      Series s = query.series().get(i);
      String path = "series[" + i + "]";
      Bound b =
          sources
              .apply(s.sourceId())
              .orElseThrow(() -> new UnknownSourceException(path + ".sourceId", s.sourceId()));
      tables.add(b.table());
      if (s.metric() != null) {
        problems.add(
            path
                + ".metricDataType: metric sources on a ClickHouse connection are not supported;"
                + " chart the metric table through a log source on it");
      }
      String where = WhereSql.ALL;
      try {
        where =
            WhereSql.compile(
                parse(s.where(), Languages.parser(s.whereLanguage())), b.table(), path + ".where");
      } catch (WhereSyntaxException e) {
        problems.add(path + ".where: " + e.getMessage());
      } catch (InvalidQueryException e) {
        problems.addAll(e.problems());
      }
      wheres.add(where);
      if (!byServer.containsKey(b.client())) {
        order.add(b.client());
      }
      byServer.computeIfAbsent(b.client(), c -> new ArrayList<>()).add(i);
    }
    if (!problems.isEmpty()) {
      throw new InvalidQueryException(problems);
    }
    ChartRows rows = new ChartRows(query);
    QueryControl control = withDeadline(options);
    for (ClickHouseClient client : order) {
      ChartSql.Statement statement = ChartSql.of(query, byServer.get(client), tables, wheres);
      rows.add(statement, client.query(statement.sql(), control));
    }
    return rows.result();
  }

  @Override
  public SearchResult search(SearchQuery query, QueryOptions options) {
    EventSearch.validate(query);
    Bound b =
        sources
            .apply(query.sourceId())
            .orElseThrow(() -> new UnknownSourceException("sourceId", query.sourceId()));
    Expr where;
    try {
      where = parse(query.where(), Languages.parser(query.whereLanguage()));
    } catch (WhereSyntaxException e) {
      throw new InvalidQueryException("where: " + e.getMessage());
    }
    SearchSql sql = new SearchSql(b.table(), query, where);
    return sql.decode(b.client().query(sql.statement(), withDeadline(options)));
  }

  /**
   * The query's control, aborted once {@link QueryOptions#timeout()} (when given) has passed, which
   * cancels the request to ClickHouse whatever the connection's own timeout allows.
   */
  private static QueryControl withDeadline(QueryOptions options) {
    Duration timeout = options.timeout();
    if (timeout == null) {
      return options.control();
    }
    QueryControl control = options.control() != null ? options.control() : new QueryControl();
    long ms = timeout.toMillis();
    CompletableFuture.delayedExecutor(ms, TimeUnit.MILLISECONDS)
        .execute(
            () ->
                control.abort(
                    QueryAbortedException.Reason.TIMEOUT,
                    "the query on ClickHouse did not answer within its timeout of "
                        + (ms % 1000 == 0 ? ms / 1000 + "s" : ms + "ms")
                        + "; it was cancelled"));
    return control;
  }

  private static Expr parse(String where, WhereLanguage language) {
    if (where == null || where.isBlank()) {
      return new Expr.MatchAll();
    }
    return WhereParser.parse(where, language == null ? WhereLanguage.LUCENE : language);
  }
}
