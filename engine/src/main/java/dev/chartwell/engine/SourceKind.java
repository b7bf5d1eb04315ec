package dev.chartwell.engine;

import java.util.Locale;
import java.util.Optional;

/** What a source holds. The engine treats all kinds alike; the kind is for clients. */
public enum SourceKind {
  /** log events. */
  LOG,
  /** trace spans. */
  TRACE,
  /** metric points. */
  METRIC,
  /** session replay events. */
  SESSION;

  /**
   * @return {@code log}, {@code trace}, {@code metric} or {@code session}
   */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * @param name a wire name
   * @return the kind, if the name is one
   */
  public static Optional<SourceKind> fromWireName(String name) {
    for (SourceKind k : values()) {
      if (k.wireName().equals(name)) {
        return Optional.of(k);
      }
    }
    return Optional.empty();
  }
}
