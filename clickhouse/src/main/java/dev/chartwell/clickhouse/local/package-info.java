/**
 * A local {@code clickhouse-server} (Debian's package) started on loopback ports with a data
 * directory of its own, alone or as a cluster: what the tests of the ClickHouse backend and the
 * side-by-side benchmark run against. Nothing here installs anything; without the binary callers
 * skip, loudly.
 */
package dev.chartwell.clickhouse.local;
