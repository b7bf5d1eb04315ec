/**
 * The start-up warm-up: after the server listens, a throwaway server in the same JVM, over a
 * temporary data directory, receives synthetic log events and answers the shapes of chart query
 * users ask, so that the classes, caches and compiled code the first real requests need are ready
 * ({@link dev.chartwell.server.warmup.WarmUp}). The events and queries are the embedded engine's
 * ({@code dev.chartwell.engine.internal.warmup}), sent over HTTP.
 */
package dev.chartwell.server.warmup;
