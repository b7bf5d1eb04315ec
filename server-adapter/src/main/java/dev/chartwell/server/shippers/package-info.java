/**
 * The ways in of the log shippers teams already run: the Elasticsearch bulk API ({@link
 * dev.chartwell.server.shippers.ElasticRoutes}, with the handshake its clients make first) and the
 * Loki push API ({@link dev.chartwell.server.shippers.LokiRoutes}). Both authenticate with a
 * service's token like OTLP, and write into log tables they create, with a source, on first use
 * ({@link dev.chartwell.server.shippers.LogTables}). Bulk documents are read by the NDJSON route's
 * byte reader; Loki pushes, in either encoding, are read from their bytes onto a tape ({@code
 * LokiTape}) whose entries are then written from the request's bytes, with the general readers
 * deciding whatever is unusual.
 */
package dev.chartwell.server.shippers;
