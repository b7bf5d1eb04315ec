package dev.chartwell.server.catalog;

import java.util.List;

/**
 * The API a source is shown through: the ClickHouse Cloud API or HyperDX's {@code /api/v2}. Each
 * document declares a field the other lacks, and a strict client fails on an undeclared field, so
 * each API leaves the other's field out of its answers, and a replacement through one API keeps the
 * stored value of the field only the other shows.
 */
public enum SourceApi {
  /** the Cloud API's {@code .../clickstack/sources}: no {@code serviceVersionExpression}. */
  CLOUD(List.of("serviceVersionExpression")),
  /** HyperDX's {@code /api/v2/sources}: no {@code filterSettings}. */
  HYPERDX(List.of("filterSettings"));

  private final List<String> hidden;

  SourceApi(List<String> hidden) {
    this.hidden = hidden;
  }

  /**
   * @return the stored fields this API does not show
   */
  List<String> hidden() {
    return hidden;
  }
}
