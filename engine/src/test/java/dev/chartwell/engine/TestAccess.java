package dev.chartwell.engine;

import dev.chartwell.engine.internal.source.SourceCore;

/** Lets the tests of internal packages reach what the public API hides. */
public final class TestAccess {
  private TestAccess() {}

  /**
   * @param source a source of an engine
   * @return its mechanics
   */
  public static SourceCore core(Source source) {
    return source.core();
  }
}
