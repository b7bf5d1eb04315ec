/**
 * The ClickHouse backend: sources that read a table of an external ClickHouse server (or a
 * Distributed table of a cluster) answer chart queries and searches as SQL run there. {@link
 * dev.chartwell.clickhouse.WhereSql} compiles a {@code where} tree with the engine's exact
 * semantics, {@link dev.chartwell.clickhouse.ChartSql} a chart query into one statement (bucketing
 * and aggregation done by ClickHouse), and {@link dev.chartwell.clickhouse.ClickHouseBackend}
 * returns the engine's own result records, so that the server renders both backends with one code
 * path. {@link dev.chartwell.clickhouse.ClickHouseClient} speaks the HTTP interface with the JDK
 * client; {@link dev.chartwell.clickhouse.RowInserter} writes ingested events. Depends on the
 * parser and the engine's query model, never on the server.
 */
package dev.chartwell.clickhouse;
