package dev.chartwell.server.prometheus;

import dev.chartwell.prometheus.Labels;
import java.util.HashMap;
import java.util.Map;

/**
 * The newest sample time stored for each remote-written series of one warehouse: the rule that
 * makes a retried request store nothing twice. A sample at or before its series' newest stored time
 * is skipped (a retry of a request that was stored, or an out-of-order sample, which Prometheus
 * itself rejects too). Filled, the first time the warehouse is written after a start, from the
 * stored series of the last {@link #SEED_WINDOW_MS} (the span a Prometheus keeps unsent samples in
 * its write-ahead log); after that it is kept in step with each write. Callers hold the ledger's
 * monitor while they check, store and record.
 */
final class WriteLedger {
  /** How far back the stored series are read to fill the ledger after a start: 3 hours. */
  static final long SEED_WINDOW_MS = 3 * 3600_000L;

  private final Map<Labels, Long> newest = new HashMap<>();
  private boolean seeded;

  /**
   * Fills the ledger from the store once.
   *
   * @param store the warehouse's series
   * @param now the current time, epoch ms
   */
  void seed(MetricStore store, long now) {
    if (seeded) {
      return;
    }
    newest.putAll(store.newestRemoteWritten(now - SEED_WINDOW_MS));
    seeded = true;
  }

  /**
   * @param series a series
   * @return the newest time stored for it, or {@link Long#MIN_VALUE}
   */
  long newest(Labels series) {
    return newest.getOrDefault(series, Long.MIN_VALUE);
  }

  /**
   * Records a stored sample.
   *
   * @param series its series
   * @param time its time
   */
  void stored(Labels series, long time) {
    newest.merge(series, time, Math::max);
  }
}
