/**
 * Internal (not part of the API; it changes without notice). Columnar storage. A {@link
 * dev.chartwell.engine.internal.segment.SegmentBuilder} (a source's head) takes rows in arrival
 * order; sealing sorts them by time and encodes each column compactly: frame-of-reference
 * bit-packed longs and timestamps, doubles with zone maps, booleans as bitmaps, strings as a sorted
 * dictionary with bit-packed ids and one Roaring bitmap of rows per value, and a token index over
 * the implicit column. Bitmaps are serialized back to back in one buffer ({@link
 * dev.chartwell.engine.internal.segment.BitmapList}) so that a value costs bytes, not objects.
 * Sealing sorts strings as UTF-8 bytes with a radix sort ({@code Utf8Sort}) and gathers tokens
 * without an object per occurrence ({@code Utf8Table}); a head keeps each column in a buffer of its
 * type ({@code HeadColumn}: {@code HeadLongs}, {@code HeadDoubles}, {@code HeadBools}, {@code
 * HeadStrings}, which stops deduplicating once a column proves nearly unique). A segment built from
 * rows some of which are in segments built before (a head's parts) merges their token indexes
 * ({@code TokenIndexMerger}) instead of tokenizing them again. A segment keeps, beside its data,
 * what queries derive from it once: the rows of each time bucket of a length ({@link
 * dev.chartwell.engine.internal.segment.BucketRows}) and aggregation's block summaries ({@link
 * dev.chartwell.engine.internal.segment.Segment#derived}).
 */
package dev.chartwell.engine.internal.segment;
