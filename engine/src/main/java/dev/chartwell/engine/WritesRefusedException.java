package dev.chartwell.engine;

/**
 * The engine refuses writes for now, because the events it holds in memory reached its limit or the
 * heap is nearly full after garbage collection. Nothing of the refused call is kept; what was
 * accepted before stays. Retrying later may succeed (after sealing, eviction, or when the limit is
 * raised).
 */
public final class WritesRefusedException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /**
   * @param reason why, with the limit that applies
   */
  public WritesRefusedException(String reason) {
    super(reason, null, false, false);
  }
}
