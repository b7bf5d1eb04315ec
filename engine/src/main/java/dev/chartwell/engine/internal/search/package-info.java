/**
 * Internal (not part of the API; it changes without notice). Event search: the events of a source
 * that match a {@code where} in a time range, newest (or oldest) first, with chosen columns, a
 * limit and an offset. It reads the same segments, indexes and per-segment time order as chart
 * queries: segments are visited latest first and skipped once they cannot hold an event newer than
 * the ones already kept, each segment's time range is a row range found by binary search, the where
 * narrows it to a bitmap of matching rows, and only the rows that make the page are read.
 */
package dev.chartwell.engine.internal.search;
