package dev.chartwell.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MainTest {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(CountDownLatch stop, Map<String, String> env, String... args) {
    return Main.run(
        args,
        env,
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8),
        stop,
        stop::countDown);
  }

  @Test
  void badFlagPrintsOneLineAndExits2() {
    assertEquals(Main.EXIT_USAGE, run(new CountDownLatch(1), Map.of(), "--port", "http"));
    assertEquals(
        "chartwell: --port: must be an integer from 0 to 65535, got 'http' (see --help)\n",
        err.toString(StandardCharsets.UTF_8));
    assertEquals("", out.toString(StandardCharsets.UTF_8));
  }

  @Test
  void badEnvironmentExits2() {
    assertEquals(Main.EXIT_USAGE, run(new CountDownLatch(1), Map.of("CHARTWELL_THREADS", "-1")));
    assertTrue(err.toString(StandardCharsets.UTF_8).startsWith("chartwell: CHARTWELL_THREADS:"));
  }

  @Test
  void versionPrintsTheVersionAndTheCommit() {
    assertEquals(0, run(new CountDownLatch(1), Map.of(), "--version"));
    String printed = out.toString(StandardCharsets.UTF_8);
    assertTrue(
        printed.matches("chartwell [0-9][^ ]* \\(commit ([0-9a-f]{7,}|unknown)\\)\n"), printed);
    assertEquals(Version.current().line() + "\n", printed);
  }

  @Test
  void serveIsTheDefaultCommandAndMayBeNamed() {
    assertEquals(Main.EXIT_USAGE, run(new CountDownLatch(1), Map.of(), "serve", "--port", "http"));
    assertTrue(
        err.toString(StandardCharsets.UTF_8).startsWith("chartwell: --port: must be an integer"),
        err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void anUnknownCommandExits2NamingTheCommands() {
    assertEquals(Main.EXIT_USAGE, run(new CountDownLatch(1), Map.of(), "backpu"));
    assertEquals(
        "chartwell: unknown command 'backpu': the commands are serve (the default), ingest,"
            + " backup and restore (see --help)\n",
        err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void backupAndRestoreNameWhatTheyLack() {
    assertEquals(Main.EXIT_USAGE, run(new CountDownLatch(1), Map.of(), "backup", "--to", "x"));
    assertTrue(
        err.toString(StandardCharsets.UTF_8)
            .startsWith("chartwell: backup: --data-dir is required"),
        err.toString(StandardCharsets.UTF_8));
    err.reset();
    assertEquals(
        Main.EXIT_USAGE,
        run(new CountDownLatch(1), Map.of(), "restore", "--from", "x", "--bogus", "y"));
    assertTrue(
        err.toString(StandardCharsets.UTF_8).startsWith("chartwell: restore: unknown flag --bogus"),
        err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void helpExits0() {
    assertEquals(0, run(new CountDownLatch(1), Map.of(), "--help"));
    assertTrue(out.toString(StandardCharsets.UTF_8).contains("--data-dir DIR"));
  }

  @Test
  void startsPrintsBannerAndStopsCleanly(@TempDir Path dir) {
    int code = run(new CountDownLatch(1), Map.of(), "--port=0", "--data-dir", dir.toString());
    assertEquals(0, code, err.toString(StandardCharsets.UTF_8));
    String printed = out.toString(StandardCharsets.UTF_8);
    assertTrue(printed.startsWith("Chartwell listening on http://127.0.0.1:"), printed);
    assertTrue(printed.contains("admin key secret"), printed);
    assertTrue(printed.endsWith("Chartwell stopped\n"), printed);
  }

  @Test
  void jsonLogsAreOneObjectPerLineAndHoldNoSecret(@TempDir Path dir) throws Exception {
    int code =
        run(
            new CountDownLatch(1),
            Map.of(),
            "--port=0",
            "--data-dir",
            dir.toString(),
            "--quickstart",
            "--log-format",
            "json");
    assertEquals(0, code, err.toString(StandardCharsets.UTF_8));
    String printed = out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
    com.fasterxml.jackson.databind.ObjectMapper m =
        new com.fasterxml.jackson.databind.ObjectMapper();
    java.util.List<String> messages = new java.util.ArrayList<>();
    for (String line : printed.split("\n")) {
      com.fasterxml.jackson.databind.JsonNode record = m.readTree(line); // each line is JSON
      assertTrue(record.get("time").asText().endsWith("Z"), line);
      assertTrue(java.util.Set.of("INFO", "WARN", "ERROR").contains(record.get("level").asText()));
      messages.add(record.get("message").asText());
    }
    assertTrue(messages.get(0).startsWith("Chartwell listening on http://127.0.0.1:"), printed);
    String secret = java.nio.file.Files.readString(dir.resolve(Main.ADMIN_SECRET_FILE)).strip();
    String token = QuickStart.read(dir, m).orElseThrow().token();
    assertTrue(!printed.contains(secret) && !printed.contains(token), printed);
    assertTrue(
        messages.contains(
            "admin key secret: not written to JSON logs; it is in "
                + dir.resolve(Main.ADMIN_SECRET_FILE)
                + " (owner-only): store it, then delete the file"),
        printed);
    assertTrue(
        !dev.chartwell.engine.internal.storage.OwnerOnly.isOpenToOthers(
            dir.resolve(Main.ADMIN_SECRET_FILE)));
  }

  @Test
  void aTakenPortExits1NamingItAndLeavesTheDataDirectoryAlone(@TempDir Path dir) throws Exception {
    try (java.net.ServerSocket taken =
        new java.net.ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
      Path data = dir.resolve("data");
      assertEquals(
          Main.EXIT_START_FAILED,
          run(
              new CountDownLatch(1),
              Map.of(),
              "--port",
              String.valueOf(taken.getLocalPort()),
              "--data-dir",
              data.toString()));
      assertEquals(
          "chartwell: cannot start: port "
              + taken.getLocalPort()
              + " on 127.0.0.1 is already in use\n",
          err.toString(StandardCharsets.UTF_8));
      assertTrue(java.nio.file.Files.notExists(data), "the data directory was created");
    }
  }

  @Test
  void unusableDataDirectoryExits1WithOneLine(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("file");
    java.nio.file.Files.writeString(file, "not a directory");
    assertEquals(
        Main.EXIT_START_FAILED,
        run(new CountDownLatch(1), Map.of(), "--port=0", "--data-dir", file.toString()));
    String e = err.toString(StandardCharsets.UTF_8);
    assertTrue(e.startsWith("chartwell: cannot start: cannot create data directory"), e);
    assertEquals(1, e.lines().count(), e);
  }
}
