package dev.chartwell.server.shippers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real shippers' Node.js clients, unmodified: pino-elasticsearch (the official
 * {@code @elastic/elasticsearch} 8.x client's bulk helper) and winston-loki (snappy-compressed
 * protobuf), run by {@code src/test/node/ship.mjs}, each writing thousands of events that chart and
 * search queries then count exactly. It needs {@code node} and the clients installed by {@code npm
 * ci} in {@code src/test/node} (as {@code .ci/run} does); without them it skips, loudly.
 */
class ShipperNodeClientsIntegrationTest {
  private static final Path DIR = Path.of("src/test/node");
  private static final int EVENTS = 3000;

  private static Path node() {
    for (String p : new String[] {"/usr/bin/node", "/usr/local/bin/node"}) {
      if (Files.isExecutable(Path.of(p))) {
        return Path.of(p);
      }
    }
    return null;
  }

  @Test
  void pinoElasticsearchAndWinstonLokiCountedExactly(@TempDir Path dir) throws Exception {
    Path node = node();
    boolean installed = Files.isDirectory(DIR.resolve("node_modules/pino-elasticsearch"));
    if (node == null || !installed) {
      System.err.println(
          "SKIPPED ShipperNodeClientsIntegrationTest: "
              + (node == null
                  ? "no node (apt-get install nodejs npm)"
                  : "no clients installed (npm ci in server-adapter/src/test/node)"));
    }
    Assumptions.assumeTrue(node != null && installed, "node or the Node.js clients missing");
    try (ShipperServer s = new ShipperServer(dir)) {
      Process p =
          new ProcessBuilder(
                  node.toString(),
                  "ship.mjs",
                  s.url(),
                  s.serviceId,
                  s.token,
                  Integer.toString(EVENTS))
              .directory(DIR.toFile())
              .redirectErrorStream(true)
              .start();
      String out = output(p);
      assertEquals(0, p.exitValue(), out);
      assertTrue(out.contains("pino-elasticsearch " + EVENTS + " failed 0"), out);
      assertTrue(out.contains("winston-loki " + EVENTS), out);
      assertEquals(EVENTS, s.count("node_pino", null));
      assertEquals(EVENTS, s.count("node_pino", "placed"));
      assertEquals(1, s.count("node_pino", "order:7"));
      assertEquals(
          Map.of("eu", (long) EVENTS / 2, "us", (long) EVENTS / 2),
          s.counts("node_pino", "shop.region", null));
      assertEquals(EVENTS, s.count("Loki", null));
      assertEquals(Map.of("node-winston", (long) EVENTS), s.counts("Loki", "ServiceName", null));
      assertEquals(
          Map.of("warn", (long) EVENTS / 4, "info", (long) EVENTS * 3 / 4),
          s.counts("Loki", "SeverityText", null));
    }
  }

  /** The process's output, once it has ended (two minutes at most). */
  private static String output(Process p) throws IOException, InterruptedException {
    byte[] bytes = p.getInputStream().readAllBytes(); // until the process closes it
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError(
          "ship.mjs did not end: " + new String(bytes, StandardCharsets.UTF_8));
    }
    return new String(bytes, StandardCharsets.UTF_8);
  }
}
