package dev.chartwell.engine;

import java.util.Locale;
import java.util.Optional;

/**
 * The language a series' or search's {@code where} is written in. See the where-language page of
 * the documentation for both grammars.
 */
public enum WhereLanguage {
  /** Lucene-style: {@code SeverityText:error AND NOT ServiceName:web}, bare terms, ranges. */
  LUCENE,
  /** A SQL boolean expression: {@code SeverityText = 'error' AND Duration > 100}. */
  SQL;

  /**
   * @return the name used in requests: {@code lucene} or {@code sql}
   */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * @param name {@code lucene} or {@code sql}
   * @return the language, if the name is one
   */
  public static Optional<WhereLanguage> fromWireName(String name) {
    for (WhereLanguage l : values()) {
      if (l.wireName().equals(name)) {
        return Optional.of(l);
      }
    }
    return Optional.empty();
  }
}
