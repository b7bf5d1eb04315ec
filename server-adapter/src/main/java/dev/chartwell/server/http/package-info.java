/**
 * The HTTP layer shared by both APIs: the JDK {@code HttpServer} on a bounded pool, a router with
 * path parameters (404 and 405 in the envelope), authentication before any handler runs (HTTP Basic
 * and Bearer, 401 for missing or malformed credentials), request body limits (413 without buffering
 * the body) and the error envelope {@code {"status","error","requestId"}} with a fresh UUID v4 for
 * every response.
 */
package dev.chartwell.server.http;
