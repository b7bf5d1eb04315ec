package dev.chartwell.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The internal-CA example of docs/security.md, run as written: its OpenSSL commands make a CA and a
 * server certificate, the server starts with them, and its {@code curl} trusts the CA.
 */
class SecurityDocTest {
  private static final Path DOC = Path.of("../docs/security.md");

  @TempDir Path dir;

  @Test
  void theInternalCaExampleWorksAsWritten() throws Exception {
    for (String tool : List.of("/usr/bin/openssl", "/usr/bin/curl")) {
      if (!Files.isExecutable(Path.of(tool))) {
        System.err.println("\n*** SKIPPED: " + tool + " is not installed ***\n");
      }
      assumeTrue(Files.isExecutable(Path.of(tool)), "SKIPPED: " + tool + " is not installed");
    }
    List<String> blocks = blocksAfter(Files.readString(DOC), "<!-- test: internal-ca -->");
    assertEquals("", run(blocks.get(0)).strip());
    assertTrue(
        Files.readString(dir.resolve("server.pem")).contains("BEGIN CERTIFICATE"), "made a cert");

    String[] lines = blocks.get(1).strip().split("\n");
    assertEquals(2, lines.length, blocks.get(1));
    List<String> flags = new ArrayList<>();
    List<String> words = Arrays.asList(lines[0].split("\\s+"));
    assertEquals("chartwell-server.jar", words.get(2), lines[0]);
    for (int i = 3; i < words.size(); i += 2) {
      if (!words.get(i).equals("--port")) { // the test server takes a free port
        String value = words.get(i + 1);
        flags.add(words.get(i));
        flags.add(value.endsWith(".pem") ? dir.resolve(value).toString() : value);
      }
    }
    try (ChartwellServer server =
        TestServers.start(dir.resolve("data"), flags.toArray(String[]::new))) {
      String curl = lines[1].replace(":8443", ":" + server.port());
      assertEquals("{\"status\":\"ok\"}", run(curl).strip());
    }
  }

  /** The fenced code blocks after a marker, in order. */
  private static List<String> blocksAfter(String doc, String marker) {
    int at = doc.indexOf(marker);
    assertTrue(at >= 0, "docs/security.md has no " + marker);
    List<String> blocks = new ArrayList<>();
    String rest = doc.substring(at);
    int open;
    while (blocks.size() < 2 && (open = rest.indexOf("```\n")) >= 0) {
      int close = rest.indexOf("\n```", open + 4);
      blocks.add(rest.substring(open + 4, close + 1));
      rest = rest.substring(close + 4);
    }
    return blocks;
  }

  private String run(String script) throws Exception {
    Process p =
        new ProcessBuilder("bash", "-euo", "pipefail", "-c", script)
            .directory(dir.toFile())
            .redirectErrorStream(false)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), script);
    assertEquals(0, p.exitValue(), script + "\n" + out + err);
    return out;
  }
}
