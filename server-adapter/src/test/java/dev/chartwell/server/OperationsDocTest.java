package dev.chartwell.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.chartwell.server.http.HttpTestClient;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The commands of docs/operations.md, run as written (paths moved into a temporary folder, the port
 * a free one): the server started with {@code --backup-dir}, the backup route by {@code curl}, the
 * offline {@code backup}, {@code restore} and a server on the restored directory.
 */
class OperationsDocTest {
  private static final Path DOC = Path.of("../docs/operations.md");

  @TempDir Path dir;

  @Test
  void theBackupAndRestoreExamplesWorkAsWritten() throws Exception {
    assumeTrue(Files.isExecutable(Path.of("/usr/bin/curl")), "SKIPPED: curl is not installed");
    List<String> blocks = blocks(Files.readString(DOC));
    String online = find(blocks, "--backup-dir");
    String[] onlineLines = online.split("\n", 2);
    try (ChartwellServer server = start(args(onlineLines[0]))) {
      String curl = onlineLines[1].replace(":8080", ":" + server.port());
      String answer = bash(curl);
      assertTrue(answer.contains("\"status\":\"done\""), answer);
    }
    String backup = find(blocks, "chartwell-server.jar backup");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    assertEquals(0, main(args(backup.strip()), out));
    assertTrue(out.toString(StandardCharsets.UTF_8).startsWith("backup "), out.toString());

    String[] restore = find(blocks, "chartwell-server.jar restore").strip().split("\n");
    assertEquals(0, main(args(restore[0]), new ByteArrayOutputStream()));
    try (ChartwellServer server = start(args(restore[1]))) {
      assertEquals(
          200, new HttpTestClient(server.port()).send("GET", "/health", null).statusCode());
    }
  }

  /** The words after {@code chartwell-server.jar}, with the doc's paths under the temp folder. */
  private String[] args(String line) {
    String moved =
        line.replace("/var/lib/chartwell-restored", dir.resolve("restored").toString())
            .replace("/var/lib/chartwell", dir.resolve("data").toString())
            .replace("/backups/chartwell", dir.resolve("backups").toString());
    List<String> words = Arrays.asList(moved.strip().split("\\s+"));
    assertEquals("chartwell-server.jar", words.get(2), line);
    return words.subList(3, words.size()).toArray(String[]::new);
  }

  private static ChartwellServer start(String[] flags) throws Exception {
    List<String> all = new ArrayList<>(Arrays.asList(flags));
    all.addAll(
        List.of(
            "--port", "0", "--api-key", "ADMIN:change-me-please", "--key-hash-iterations", "1000"));
    return ChartwellServer.start(
        ServerConfig.parse(all.toArray(String[]::new), Map.of()),
        new PrintStream(OutputStream.nullOutputStream()),
        TestServers.FAST);
  }

  private static int main(String[] args, ByteArrayOutputStream out) {
    return Main.run(
        args,
        Map.of(),
        new PrintStream(out, true, StandardCharsets.UTF_8),
        System.err,
        new CountDownLatch(0),
        () -> {});
  }

  private static String find(List<String> blocks, String text) {
    return blocks.stream()
        .filter(b -> b.startsWith("java") && b.contains(text))
        .findFirst()
        .orElseThrow(() -> new AssertionError("docs/operations.md has no block with " + text));
  }

  /** The fenced code blocks without a language or in bash. */
  private static List<String> blocks(String doc) {
    List<String> out = new ArrayList<>();
    StringBuilder block = null;
    boolean plain = false;
    for (String line : doc.split("\n")) {
      if (line.startsWith("```")) {
        if (block == null) {
          block = new StringBuilder();
          plain = line.equals("```") || line.equals("```bash");
        } else {
          if (plain) {
            out.add(block.toString());
          }
          block = null;
        }
      } else if (block != null) {
        block.append(line).append('\n');
      }
    }
    return out;
  }

  private String bash(String script) throws Exception {
    Process p =
        new ProcessBuilder("bash", "-euo", "pipefail", "-c", script)
            .directory(dir.toFile())
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), script);
    assertEquals(0, p.exitValue(), script + "\n" + out + err);
    return out;
  }
}
