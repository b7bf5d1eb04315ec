package dev.chartwell.engine.internal.query;

import dev.chartwell.engine.ChartQuery;
import dev.chartwell.engine.ChartResult;
import dev.chartwell.engine.Engine;
import dev.chartwell.engine.QueryOptions;
import dev.chartwell.engine.SearchQuery;
import dev.chartwell.engine.SearchResult;

/**
 * Where a source's events are queried: the embedded {@link Engine}, or an external store that
 * answers the same queries with the same results (the ClickHouse backend). The server resolves a
 * source to its backend and renders what it returns with one code path, whichever it is.
 */
public interface Backend {
  /**
   * Runs a chart query whose series all read sources of this backend.
   *
   * @param query the query (series name sources by the ids this backend knows them by)
   * @param options execution options (deadline, cancellation)
   * @return the rows, ordered by bucket then group, as §4.2 of the contract says
   * @throws dev.chartwell.engine.InvalidQueryException when the query is invalid or exceeds the row
   *     or group limits
   * @throws dev.chartwell.engine.UnknownSourceException when a series names an unknown source
   * @throws dev.chartwell.engine.QueryAbortedException when it was stopped or refused
   */
  ChartResult query(ChartQuery query, QueryOptions options);

  /**
   * Finds the events of one source matching a where in a time range.
   *
   * @param query the search
   * @param options execution options
   * @return the page of events
   */
  SearchResult search(SearchQuery query, QueryOptions options);

  /**
   * @param engine an engine
   * @return the backend answering from that engine
   */
  static Backend of(Engine engine) {
    java.util.Objects.requireNonNull(engine, "engine");
    return new Backend() {
      @Override
      public ChartResult query(ChartQuery query, QueryOptions options) {
        return engine.query(query, options);
      }

      @Override
      public SearchResult search(SearchQuery query, QueryOptions options) {
        return engine.search(query, options);
      }
    };
  }
}
