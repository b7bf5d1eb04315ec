package dev.chartwell.server.prometheus;

/**
 * One segment's part of a selection of samples, read in two passes so that each series' arrays are
 * sized once for every segment: {@link #count} adds each selected series' samples to its {@link
 * SampleBuffer#expected}, and after every segment was counted and the buffers {@link
 * SampleBuffer#reserve reserved}, {@link #fill} appends them. Segments are filled oldest first, so
 * that of two samples at one millisecond the later write is kept.
 */
interface SegmentRead {
  /**
   * Counts the selected samples.
   *
   * @throws MetricStore.TooManySamples when the selection grows past its limit
   */
  void count();

  /** Appends the samples counted into the room reserved for them. */
  void fill();
}
