/**
 * The bench tool over HTTP: {@code load} sends an NDJSON file to a running server over concurrent
 * connections with progress on the terminal, {@code query} times Q1–Q6 with the server's own
 * timings, and {@code sidebyside} loads the same file into a local ClickHouse and a Chartwell
 * server it starts, then compares load rate, bytes on disk, answers and latencies of Q1–Q6.
 */
package dev.chartwell.bench.http;
