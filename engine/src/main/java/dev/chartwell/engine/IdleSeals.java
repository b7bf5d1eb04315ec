package dev.chartwell.engine;

import dev.chartwell.engine.internal.source.SourceCore;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Seals the heads no append changed for {@link Engine.Builder#sealIdle} while memory is wanted (the
 * events held are more than half of {@link Engine.Builder#maxMemoryBytes}), so that partly filled
 * heads of sources gone quiet give their memory back. Without memory pressure idle heads are left
 * alone: a source that trickles would otherwise leave one small segment per quiet spell.
 *
 * <p>Idleness is measured on the engine's clock from the first check that saw the head's current
 * version, so a head is sealed between {@code sealIdle} and {@code sealIdle} plus the check period
 * after its last append.
 */
final class IdleSeals {
  private final long idleMillis;
  private final Clock clock;
  private final Supplier<List<SourceCore>> cores;
  private final LongSupplier heldBytes;
  private final long pressureBytes;
  private Map<SourceCore, Seen> seen = new HashMap<>();

  private record Seen(long version, long sinceMillis) {}

  /**
   * @param idle how long a head stays unchanged before it is sealed
   * @param clock the engine's clock
   * @param cores a fresh list of the sources' cores
   * @param heldBytes the bytes of events held in memory
   * @param maxMemoryBytes the memory limit ({@link Long#MAX_VALUE}: none, idle heads are always
   *     sealed)
   */
  IdleSeals(
      Duration idle,
      Clock clock,
      Supplier<List<SourceCore>> cores,
      LongSupplier heldBytes,
      long maxMemoryBytes) {
    this.idleMillis = idle.toMillis();
    this.clock = clock;
    this.cores = cores;
    this.heldBytes = heldBytes;
    this.pressureBytes = maxMemoryBytes == Long.MAX_VALUE ? 0 : maxMemoryBytes / 2;
  }

  /**
   * @return how often to check: a quarter of the idle time, from 100 ms to 1 s
   */
  Duration period() {
    return Duration.ofMillis(Math.max(100, Math.min(1000, idleMillis / 4)));
  }

  /**
   * Notes each head's version and hands over those unchanged for the idle time.
   *
   * @return how many heads were handed over for sealing
   */
  synchronized int run() {
    long now = clock.millis();
    boolean wanted = heldBytes.getAsLong() > pressureBytes;
    Map<SourceCore, Seen> next = new HashMap<>();
    int sealed = 0;
    for (SourceCore s : cores.get()) {
      long version = s.headVersion();
      Seen before = seen.get(s);
      Seen current =
          before != null && before.version() == version ? before : new Seen(version, now);
      if (wanted && now - current.sinceMillis() >= idleMillis && s.sealIfUnchanged(version)) {
        sealed++;
      } else {
        next.put(s, current);
      }
    }
    seen = next;
    return sealed;
  }
}
