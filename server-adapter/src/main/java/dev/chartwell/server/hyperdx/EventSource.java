package dev.chartwell.server.hyperdx;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.chartwell.clickhouse.ClickHouseBackend;
import dev.chartwell.clickhouse.ClickHouseException;
import dev.chartwell.clickhouse.Field;
import dev.chartwell.engine.ChartQuery;
import dev.chartwell.engine.ChartResult;
import dev.chartwell.engine.Engine;
import dev.chartwell.engine.InvalidQueryException;
import dev.chartwell.engine.QueryAbortedException;
import dev.chartwell.engine.QueryControl;
import dev.chartwell.engine.QueryOptions;
import dev.chartwell.engine.SearchQuery;
import dev.chartwell.engine.SearchResult;
import dev.chartwell.engine.Source;
import dev.chartwell.engine.UnknownSourceException;
import dev.chartwell.engine.internal.query.Backend;
import dev.chartwell.server.catalog.Catalog;
import dev.chartwell.server.catalog.SourceApi;
import dev.chartwell.server.charts.ChartRoutes;
import dev.chartwell.server.charts.ClickHouseErrors;
import dev.chartwell.server.charts.ServicePrincipal;
import dev.chartwell.server.http.ApiException;
import dev.chartwell.server.http.Request;
import dev.chartwell.server.http.Response;
import dev.chartwell.server.tenancy.Tenancy;
import java.io.IOException;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A log or trace source of the caller's warehouse resolved to where its events are queried (the
 * engine or a ClickHouse connection), for the explore routes (traces, facets, surrounding events):
 * one code path runs their searches and charts on either under the service's query limits, stops
 * them when the client goes away or at {@code --query-timeout} (a connection's), and turns the
 * backends' refusals into our errors.
 *
 * @param id the source's id
 * @param definition the source as {@code /api/v2} shows it
 * @param queryId the id its backend knows it by
 * @param timestamp its timestamp column
 * @param hasColumn whether the source's table has a column (the timestamp included)
 * @param backend where its queries run
 * @param engineSource the engine's source, or {@code null} for one on a ClickHouse connection
 */
record EventSource(
    String id,
    ObjectNode definition,
    String queryId,
    String timestamp,
    Predicate<String> hasColumn,
    Backend backend,
    Source engineSource) {

  /**
   * @param catalog the catalog
   * @param engine the engine
   * @param warehouse the caller's warehouse
   * @param sourceId a source id
   * @return the source
   * @throws ApiException 404 when the warehouse has no such source, 400 for a metric source
   */
  static EventSource resolve(Catalog catalog, Engine engine, String warehouse, String sourceId) {
    ObjectNode source = catalog.source(warehouse, sourceId, SourceApi.HYPERDX);
    String kind = source.path("kind").asText();
    if (!kind.equals("log") && !kind.equals("trace")) {
      throw ApiException.badRequest(
          "sourceId: " + sourceId + " is a " + kind + " source: this reads log and trace sources");
    }
    Optional<ClickHouseBackend.Bound> external = catalog.clickHouseSourceOf(warehouse, sourceId);
    if (external.isPresent()) {
      ClickHouseBackend.Bound b = external.get();
      String ts = b.table().timestampColumn();
      return new EventSource(
          sourceId,
          source,
          sourceId,
          ts,
          c -> c.equals(ts) || Field.resolve(b.table(), c).isPresent(),
          new ClickHouseBackend(id -> external),
          null);
    }
    Source table =
        catalog
            .engineSourceOf(warehouse, sourceId)
            .orElseThrow(() -> ApiException.notFound("source " + sourceId + " does not exist"));
    String ts = table.spec().timestampColumn();
    return new EventSource(
        sourceId,
        source,
        table.id(),
        ts,
        c -> c.equals(ts) || table.columns().stream().anyMatch(x -> x.name().equals(c)),
        Backend.of(engine),
        table);
  }

  /**
   * The column a source expression names, when it is a plain column of the table.
   *
   * @param expression the source's field naming the expression ({@code traceIdExpression}, ...)
   * @return the column, if the source sets the expression and it names a column
   */
  Optional<String> column(String expression) {
    String e = definition.path(expression).asText("").strip().replace("`", "");
    return e.isEmpty() || !hasColumn.test(e) ? Optional.empty() : Optional.of(e);
  }

  /** An explore route's queries on a source, stopped by their control, and its answer. */
  @FunctionalInterface
  interface Work {
    /**
     * @param control stops the queries (pass it to {@link #search} and {@link #chart})
     * @return the answer
     * @throws IOException as a handler may
     */
    Response run(QueryControl control) throws IOException;
  }

  /**
   * Runs an explore route's queries on this source as {@code POST /api/v2/search} runs its own:
   * under the service's query permit ({@code --max-queries-per-service}, 429 beyond), on this
   * worker for the engine, and off the HTTP workers, stopped at {@code --query-timeout}, for a
   * ClickHouse connection; the client going away stops them.
   *
   * @param tenancy the per-service limits and the external query runner
   * @param caller the service querying
   * @param req the request
   * @param work the queries and the answer
   * @return the answer, or one to come
   * @throws IOException as the work may
   */
  Response answer(Tenancy tenancy, ServicePrincipal caller, Request req, Work work)
      throws IOException {
    QueryControl control = new QueryControl();
    req.onClientDisconnect(() -> control.cancel("the client disconnected"));
    return tenancy.query(caller.id(), engineSource == null, control, () -> work.run(control));
  }

  /**
   * @param query a search of this source (by {@link #queryId()})
   * @param control stops it
   * @return what it found
   */
  SearchResult search(SearchQuery query, QueryControl control) {
    return run(control, o -> backend.search(query, o));
  }

  /**
   * @param query a chart query of this source (by {@link #queryId()})
   * @param control stops it
   * @return its rows
   */
  ChartResult chart(ChartQuery query, QueryControl control) {
    return run(control, o -> backend.query(query, o));
  }

  private <T> T run(QueryControl control, Function<QueryOptions, T> call) {
    try {
      return call.apply(QueryOptions.DEFAULT.withControl(control));
    } catch (InvalidQueryException e) {
      throw ApiException.badRequest(e.getMessage());
    } catch (UnknownSourceException e) {
      throw ApiException.notFound("source " + id + " does not exist");
    } catch (QueryAbortedException e) {
      throw ChartRoutes.aborted(e);
    } catch (ClickHouseException e) {
      throw ClickHouseErrors.answer(e);
    }
  }
}
