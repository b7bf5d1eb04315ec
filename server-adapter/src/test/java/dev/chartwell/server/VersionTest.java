package dev.chartwell.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class VersionTest {
  @Test
  void whatTheBuildDidNotFillInIsUnknown() {
    assertEquals("unknown", Version.known(null));
    assertEquals("unknown", Version.known(" "));
    assertEquals("unknown", Version.known("${buildNumber}"));
    assertEquals("0e07c9d", Version.known("0e07c9d\n"));
  }

  @Test
  void theLineNamesVersionAndCommit() {
    assertEquals("chartwell 0.3.0 (commit abc1234)", new Version("0.3.0", "abc1234").line());
  }
}
