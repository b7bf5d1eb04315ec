package dev.chartwell.server.prometheus;

/**
 * One segment's part of a selection of samples, in two passes: {@link #count} counts the selected
 * samples (a scan adds them to each series' {@link SampleBuffer#expected}, so that its own arrays
 * are sized once for every segment), and after every segment was counted and the buffers {@link
 * SampleBuffer#reserve reserved}, {@link #fill} appends them to their series (a scan copies its
 * rows, a kept segment's decoded series are referred to). Segments are filled oldest first, so that
 * of two samples at one millisecond the later write is kept.
 */
interface SegmentRead {
  /**
   * Counts the selected samples.
   *
   * @throws MetricStore.TooManySamples when the selection grows past its limit
   */
  void count();

  /** Appends the samples counted to their series. */
  void fill();
}
