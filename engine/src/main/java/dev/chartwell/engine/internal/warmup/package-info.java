/**
 * Internal (not part of the API; it changes without notice). The start-up warm-up: synthetic log
 * events ({@link dev.chartwell.engine.internal.warmup.SyntheticLogs}) and the chart queries
 * dashboards ask ({@link dev.chartwell.engine.internal.warmup.WarmUpQueries}), run on a throwaway
 * engine until the JIT compiler has settled ({@link
 * dev.chartwell.engine.internal.warmup.JitSettle}) by the embedded engine's warm-up ({@link
 * dev.chartwell.engine.internal.warmup.EngineWarmUp}); the server's warm-up sends the same events
 * and queries over HTTP. Both end with rounds of the same shapes over the real sources' own fields
 * ({@link dev.chartwell.engine.internal.warmup.SourceQueries}, {@link
 * dev.chartwell.engine.internal.warmup.SourceRounds}), on a query engine of the warm-up's own.
 */
package dev.chartwell.engine.internal.warmup;
