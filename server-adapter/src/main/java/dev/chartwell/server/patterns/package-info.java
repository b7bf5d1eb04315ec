/**
 * Log patterns: lines of text grouped into templates, engine-independent. {@link
 * dev.chartwell.server.patterns.Masker} replaces the variable parts of a line (numbers, ids, hex,
 * IP addresses, quoted values, durations, e-mail addresses, URLs) by typed placeholders; {@link
 * dev.chartwell.server.patterns.Drain} clusters the masked lines as Drain does (He et al., 2017: a
 * fixed-depth prefix tree by token count and leading tokens, a similarity threshold, differing
 * positions merged into {@code <*>}); {@link dev.chartwell.server.patterns.PatternWhere} turns a
 * template into a where that finds every line of it.
 */
package dev.chartwell.server.patterns;
