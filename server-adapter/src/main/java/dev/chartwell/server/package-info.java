/**
 * The Chartwell server: command-line flags and environment ({@link
 * dev.chartwell.server.ServerConfig}), start-up and graceful shutdown ({@link
 * dev.chartwell.server.Main}), and the wiring of the HTTP front, the management domain and the
 * durable stores ({@link dev.chartwell.server.ChartwellServer}). The server is a thin adapter: it
 * translates JSON and HTTP to the engine's Java API and back.
 */
package dev.chartwell.server;
