package dev.chartwell.engine;

/** How series values are returned. */
public enum SeriesReturnType {
  /** one value per series. */
  COLUMN,
  /** exactly two series, returned as their quotient {@code series_0 / series_1}. */
  RATIO
}
