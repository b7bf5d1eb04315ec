/**
 * Prometheus remote write 1.0: {@link dev.chartwell.prometheus.remote.RemoteWrite} encodes and
 * decodes snappy-compressed protobuf {@code WriteRequest} bodies (the generated message classes are
 * in the sub-package {@code prompb}, from {@code src/main/protobuf/prompb/remote.proto}).
 */
package dev.chartwell.prometheus.remote;
