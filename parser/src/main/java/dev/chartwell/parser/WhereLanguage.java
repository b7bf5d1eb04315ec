package dev.chartwell.parser;

import java.util.Locale;
import java.util.Optional;

/** The languages a {@code where} clause can be written in. */
public enum WhereLanguage {
  /** The Lucene-style language, the default. */
  LUCENE,
  /** A SQL boolean expression. */
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
