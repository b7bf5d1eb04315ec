/**
 * The HTTP layer shared by both APIs: Jetty 12 (core API, no servlets) on a bounded worker pool
 * with header, body and idle timeouts and a connection limit; a router with path parameters (404
 * and 405 in the envelope); authentication before any handler runs (HTTP Basic and Bearer, 401 for
 * missing or malformed credentials); request body rules (accepted media types with 415, gzip
 * decoding, limits with 413 before and after decoding, never buffering the body); client disconnect
 * notification; and the error envelope {@code {"status","error","requestId"}} with a fresh UUID v4
 * for every response, also for requests refused by the protocol layer.
 */
package dev.chartwell.server.http;
