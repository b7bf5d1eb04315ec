/**
 * Prometheus remote write 1.0: the {@code WriteRequest} protobuf message, snappy block-compressed,
 * read and written without generated code ({@link dev.chartwell.prometheus.remote.RemoteWrite}).
 */
package dev.chartwell.prometheus.remote;
