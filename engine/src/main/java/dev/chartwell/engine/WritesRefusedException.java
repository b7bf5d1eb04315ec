package dev.chartwell.engine;

/**
 * The engine refuses writes for now, because the events it holds in memory reached its limit or the
 * heap is nearly full after garbage collection. Nothing of the refused call is kept; what was
 * accepted before stays. Retrying later may succeed (after sealing, eviction, or when the limit is
 * raised).
 */
public final class WritesRefusedException extends ChartwellException {
  private static final long serialVersionUID = 1L;

  /**
   * @param reason why, with the limit that applies
   */
  public WritesRefusedException(String reason) {
    super(reason, null, false);
  }

  /**
   * @return {@code true}: the same write may be taken once memory is freed (a seal, an eviction, a
   *     dropped source)
   */
  @Override
  public boolean retryable() {
    return true;
  }
}
