package dev.chartwell.server.shippers;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.chartwell.engine.Source;
import dev.chartwell.server.catalog.Catalog;
import dev.chartwell.server.http.ApiException;
import dev.chartwell.server.http.ErrorCode;
import java.util.List;
import java.util.Map;

/**
 * Finds the log table a shipper writes to in a warehouse's {@code default} database, creating it
 * with a log source reading it on first use, through the same {@link Catalog#provision} OTLP's
 * {@code otel_logs} takes (so the table counts as any other of the warehouse). A table that exists
 * is used as it is, whatever its definition.
 */
final class LogTables {
  static final String DATABASE = Catalog.DEFAULT_DATABASE;

  private LogTables() {}

  /**
   * @param catalog the catalog
   * @param warehouse the warehouse of the request's service
   * @param table the table name
   * @param definition its definition when it is created, as a {@code PUT /api/v2/tables} body
   * @param source the source created with it
   * @return the table's engine source
   */
  static Source table(
      Catalog catalog, String warehouse, String table, ObjectNode definition, ObjectNode source) {
    var found = catalog.engineTable(warehouse, DATABASE, table);
    if (found.isPresent()) {
      return found.get();
    }
    catalog.provision(
        warehouse, DATABASE, List.of(new Catalog.NewTable(table, "log", definition)), source);
    return catalog
        .engineTable(warehouse, DATABASE, table)
        .orElseThrow(
            () ->
                new ApiException(
                    ErrorCode.SERVICE_UNAVAILABLE,
                    "table " + table + " was deleted while this request was stored",
                    Map.of("Retry-After", "1")));
  }
}
