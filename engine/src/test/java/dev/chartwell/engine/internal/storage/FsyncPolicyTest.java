package dev.chartwell.engine.internal.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chartwell.engine.FsyncPolicy;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The command-line forms of the fsync policy. */
class FsyncPolicyTest {
  @Test
  void theThreeFormsParseAndPrintBack() {
    assertEquals(FsyncPolicy.REQUEST, FsyncPolicy.parse("request"));
    assertEquals(FsyncPolicy.NEVER, FsyncPolicy.parse("never"));
    assertEquals(FsyncPolicy.interval(250), FsyncPolicy.parse("interval:250"));
    assertEquals(FsyncPolicy.Mode.INTERVAL, FsyncPolicy.parse("interval:1").mode());
    assertEquals(3_600_000, FsyncPolicy.parse("interval:3600000").intervalMillis());
    for (String s : List.of("request", "never", "interval:1", "interval:86")) {
      assertEquals(s, FsyncPolicy.parse(s).toString());
    }
  }

  @Test
  void anythingElseIsRefusedWithTheAcceptedForms() {
    for (String bad :
        Arrays.asList(
            "",
            "REQUEST",
            "always",
            " request",
            "interval",
            "interval:",
            "interval:0",
            "interval:-5",
            "interval:+5",
            "interval:abc",
            "interval:3600001",
            "interval:99999999999999999999",
            null)) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> FsyncPolicy.parse(bad), bad);
      assertTrue(
          e.getMessage().startsWith("--fsync must be request, interval:<ms> or never, got "),
          e.getMessage());
      assertTrue(
          e.getMessage().contains(bad == null ? "nothing" : "'" + bad + "'"), e.getMessage());
    }
    assertThrows(IllegalArgumentException.class, () -> FsyncPolicy.interval(0));
    assertThrows(IllegalArgumentException.class, () -> new FsyncPolicy(FsyncPolicy.Mode.NEVER, 5));
  }
}
