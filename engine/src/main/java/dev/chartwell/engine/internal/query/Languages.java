package dev.chartwell.engine.internal.query;

import dev.chartwell.engine.WhereLanguage;

/** Maps the engine's {@link WhereLanguage} to the parser module's, which users never import. */
public final class Languages {
  private Languages() {}

  /**
   * @param language the engine's language ({@code null}: Lucene)
   * @return the parser's
   */
  public static dev.chartwell.parser.WhereLanguage parser(WhereLanguage language) {
    return language == WhereLanguage.SQL
        ? dev.chartwell.parser.WhereLanguage.SQL
        : dev.chartwell.parser.WhereLanguage.LUCENE;
  }

  /**
   * @param language the parser's language
   * @return the engine's
   */
  public static WhereLanguage engine(dev.chartwell.parser.WhereLanguage language) {
    return language == dev.chartwell.parser.WhereLanguage.SQL
        ? WhereLanguage.SQL
        : WhereLanguage.LUCENE;
  }
}
