/**
 * The start-up warm-up: after the server listens, a throwaway server in the same JVM, over a
 * temporary data directory, receives synthetic log events and answers the shapes of chart query
 * users ask, so that the classes, caches and compiled code the first real requests need are ready
 * ({@link dev.chartwell.server.warmup.WarmUp}).
 */
package dev.chartwell.server.warmup;
