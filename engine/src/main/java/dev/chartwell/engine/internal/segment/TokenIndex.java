package dev.chartwell.engine.internal.segment;

import org.roaringbitmap.buffer.ImmutableRoaringBitmap;

/**
 * The full-text index of a segment's implicit column: every token (maximal run of ASCII letters and
 * digits, lower-cased) with the rows whose value contains it.
 *
 * @param tokens distinct tokens, sorted
 * @param postings per token id: the rows containing it
 */
public record TokenIndex(StringDictionary tokens, BitmapList postings) {

  /**
   * @param token a lower-case token
   * @return the rows containing it (empty when the segment has no such token)
   */
  public ImmutableRoaringBitmap rows(String token) {
    int id = tokens.indexOf(token);
    return id < 0 ? ImmutableRoaringBitmap.bitmapOf() : postings.get(id);
  }

  /**
   * @return heap bytes used
   */
  public long bytes() {
    return 32 + tokens.bytes() + postings.bytes();
  }
}
