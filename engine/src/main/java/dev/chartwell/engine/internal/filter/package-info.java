/**
 * Internal (not part of the API; it changes without notice). Filters: a {@code where} tree compiled
 * against a source schema ({@link dev.chartwell.engine.internal.filter.FilterCompiler}) into a
 * {@link dev.chartwell.engine.internal.filter.Filter} that narrows candidate rows per segment.
 * String predicates run once per dictionary entry and OR the entries' row bitmaps; bare terms use
 * the token index; numeric predicates skip segments by zone map and scan only the rows still in
 * play.
 */
package dev.chartwell.engine.internal.filter;
