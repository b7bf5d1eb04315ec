package dev.chartwell.server.catalog;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.chartwell.clickhouse.ClickHouseBackend;
import dev.chartwell.clickhouse.ClickHouseClient;
import dev.chartwell.clickhouse.ClickHouseConnection;
import dev.chartwell.clickhouse.ClickHouseException;
import dev.chartwell.clickhouse.ClickHouseTable;
import dev.chartwell.clickhouse.Sql;
import dev.chartwell.server.security.OutboundPolicy;
import dev.chartwell.server.validation.Problems;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Sources that read a table of an external ClickHouse connection. Creating or replacing one reads
 * the table's columns ({@code DESCRIBE TABLE}) and checks its time and implicit columns; the
 * columns are stored with the source ({@code _clickhouse}), so that a query is one round trip (a
 * change of the table's columns is picked up by saving the source again). One client per connection
 * is kept, rebuilt when the connection changes; every request it makes follows the {@link
 * OutboundPolicy} (the name resolved once, the checked address connected to).
 */
final class ExternalSources {
  /** The stored field holding the table's columns as read when the source was saved. */
  static final String COLUMNS = "_clickhouse";

  private final Connections connections;
  private final OutboundPolicy outbound;
  private final Map<String, ClickHouseClient> clients = new ConcurrentHashMap<>();

  ExternalSources(Connections connections, OutboundPolicy outbound) {
    this.connections = connections;
    this.outbound = outbound;
  }

  /**
   * @param warehouse a warehouse
   * @param connectionId one of its connections
   * @return whether it is an external ClickHouse connection
   */
  boolean isExternal(String warehouse, String connectionId) {
    return connections.external(warehouse, connectionId).isPresent();
  }

  /**
   * Checks a source on an external connection and stores its table's columns in it.
   *
   * @param warehouse the warehouse
   * @param s the source, defaults filled (changed in place)
   * @param p where problems go
   */
  void bind(String warehouse, ObjectNode s, Problems p) {
    String kind = s.get("kind").asText();
    if (!kind.equals("log") && !kind.equals("trace")) {
      p.add(
          "kind",
          "a "
              + kind
              + " source cannot read through an external ClickHouse connection; log and trace"
              + " sources can");
      return;
    }
    String database = s.path("from").path("databaseName").asText("default");
    String table = s.path("from").path("tableName").asText("");
    if (table.isEmpty()) {
      p.add("from.tableName", "is required for a source on an external ClickHouse connection");
      return;
    }
    ClickHouseClient client = client(warehouse, s.get("connection").asText());
    String describe;
    try {
      describe =
          client.query(
              "DESCRIBE TABLE "
                  + Sql.identifier(database)
                  + "."
                  + Sql.identifier(table)
                  + " FORMAT TabSeparated",
              null);
    } catch (ClickHouseException e) {
      p.add(
          "from",
          "cannot read the columns of table " + database + "." + table + ": " + e.getMessage());
      return;
    }
    ClickHouseTable t =
        ClickHouseTable.fromDescribe(
            database,
            table,
            describe,
            s.get("timestampValueExpression").asText(),
            s.path("implicitColumnExpression").textValue());
    for (String problem : t.problems()) {
      int colon = problem.indexOf(": ");
      p.add(problem.substring(0, colon), problem.substring(colon + 2));
    }
    ArrayNode columns = s.putArray(COLUMNS);
    for (ClickHouseTable.Column c : t.columns()) {
      columns.addObject().put("name", c.name()).put("type", c.type());
    }
  }

  /**
   * @param warehouse the warehouse of the caller
   * @param stored a stored source
   * @return how the ClickHouse backend reads it, if it is on an external connection that exists
   */
  Optional<ClickHouseBackend.Bound> bound(String warehouse, ObjectNode stored) {
    String connection = stored.path("connection").asText(Connections.BUILT_IN);
    if (!stored.has(COLUMNS) || !isExternal(warehouse, connection)) {
      return Optional.empty();
    }
    List<ClickHouseTable.Column> columns = new ArrayList<>();
    for (var c : stored.get(COLUMNS)) {
      columns.add(ClickHouseTable.Column.of(c.path("name").asText(), c.path("type").asText()));
    }
    ClickHouseTable table =
        new ClickHouseTable(
            stored.path("from").path("databaseName").asText("default"),
            stored.path("from").path("tableName").asText(),
            columns,
            stored.path("timestampValueExpression").asText(),
            stored.path("implicitColumnExpression").textValue());
    return Optional.of(new ClickHouseBackend.Bound(client(warehouse, connection), table));
  }

  /** The client of a connection, made once per version of the connection. */
  ClickHouseClient client(String warehouse, String connectionId) {
    ClickHouseConnection c = connections.external(warehouse, connectionId).orElseThrow();
    String key = connectionId + "@" + connections.version(connectionId);
    clients.keySet().removeIf(k -> k.startsWith(connectionId + "@") && !k.equals(key));
    return clients.computeIfAbsent(key, k -> new ClickHouseClient(c, outbound::resolve));
  }
}
