/**
 * What a service's warehouse holds, as the ClickStack model has it: a <b>source</b> reads a
 * <b>table</b> ({@code from {databaseName, tableName}}) through a <b>connection</b>. Every service
 * has one built-in connection, {@code default}, to its own embedded engine; each table is one
 * engine source (the engine source's id is the table's id) and is created when a source first names
 * it or when it is declared with its columns; several sources may read one table. Table and source
 * definitions are durable in Chronicle Map; at start the engine's sources are reconciled with the
 * stored tables, and sources stored by versions before tables existed are migrated. A log or trace
 * source may instead read a table of an external ClickHouse connection ({@code ExternalSources}):
 * its columns are read there when it is saved, and the server queries it through the ClickHouse
 * backend ({@link dev.chartwell.server.catalog.Catalog#clickHouseSourceOf}). The {@link
 * dev.chartwell.server.catalog.Catalog} is the one way in, and its lock: {@code SourceBinding}
 * checks a source and binds it to its table, and {@code EngineTables} keeps the tables and their
 * engine sources in step.
 */
package dev.chartwell.server.catalog;
