package dev.chartwell.engine;

import java.util.List;

/**
 * The outcome of a batch append: the valid events are stored, the others are reported.
 *
 * @param accepted number of events stored
 * @param rejections each rejected event's position in the batch and the reason
 */
public record AppendResult(int accepted, List<Rejection> rejections) {
  /** Copies the rejections. */
  public AppendResult {
    rejections = List.copyOf(rejections);
  }

  /**
   * A rejected event.
   *
   * @param index position in the batch, from 0
   * @param reason why, naming the field
   */
  public record Rejection(int index, String reason) {}
}
