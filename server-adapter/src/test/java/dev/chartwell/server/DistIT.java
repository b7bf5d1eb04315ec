package dev.chartwell.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.chartwell.engine.internal.storage.OwnerOnly;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The release archive as a user unpacks it: what it holds, its launcher serving and stopping, the
 * container health check, the Dockerfile's instructions (no image can be built here: no registry is
 * reachable) and the systemd unit (checked by {@code systemd-analyze verify} where present).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DistIT {
  Path dir;
  Path home;

  @BeforeAll
  void unpack(@TempDir Path tmp) throws Exception {
    dir = tmp;
    Path archive = Path.of(System.getProperty("chartwell.dist"));
    assertTrue(Files.isRegularFile(archive), "archive not built: " + archive);
    run(dir, "tar", "-xzf", archive.toString());
    String name = archive.getFileName().toString().replace(".tar.gz", "");
    home = dir.resolve(name);
  }

  @Test
  void theArchiveHoldsTheServerItsLauncherUnitAndLicences() throws Exception {
    for (String f :
        List.of(
            "lib/chartwell-server.jar",
            "bin/chartwell",
            "chartwell.service",
            "chartwell.env",
            "Dockerfile",
            "LICENSE",
            "NOTICE",
            "CHANGELOG.md")) {
      assertTrue(Files.isRegularFile(home.resolve(f)), f);
    }
    assertTrue(Files.isExecutable(home.resolve("bin/chartwell")));
    String help = run(home, "bin/chartwell", "--help");
    assertTrue(help.startsWith("Chartwell: "), help);
  }

  @Test
  void theLauncherServesOwnerOnlyAndTheHealthCheckSeesIt() throws Exception {
    Path log = dir.resolve("launcher.out");
    Path data = dir.resolve("data");
    Process p =
        new ProcessBuilder(
                home.resolve("bin/chartwell").toString(),
                "--port",
                "0",
                "--data-dir",
                data.toString())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    try {
      int port = ExecutableJarIT.awaitPort(p, log);
      assertEquals(0, healthCheck(port), "the health check fails against a running server");
      assertTrue(!OwnerOnly.isOpenToOthers(data), "data directory made owner-only");
      p.destroy();
      assertTrue(p.waitFor(30, TimeUnit.SECONDS));
      assertEquals(0, p.exitValue(), Files.readString(log));
    } finally {
      p.destroyForcibly();
    }
    assertEquals(1, healthCheck(1), "the health check passes with no server");
  }

  @Test
  void theDockerfileRunsTheArchiveAsAnUnprivilegedUserWithItsDataInAVolume() throws Exception {
    Map<String, List<String>> in = instructions(Files.readString(home.resolve("Dockerfile")));
    assertEquals(List.of("eclipse-temurin:17-jre"), in.get("FROM"));
    String env = String.join(" ", in.get("ENV"));
    assertTrue(env.contains("CHARTWELL_HOST=0.0.0.0"), env);
    assertTrue(env.contains("CHARTWELL_DATA_DIR=/var/lib/chartwell"), env);
    assertTrue(
        env.contains("CHARTWELL_PORT=8080") && env.contains("CHARTWELL_OTLP_PORT=4318"), env);
    assertEquals(List.of("8080 4318"), in.get("EXPOSE"));
    assertEquals(List.of("[\"/var/lib/chartwell\"]"), in.get("VOLUME"));
    assertEquals(List.of("chartwell"), in.get("USER"));
    assertTrue(in.get("RUN").get(0).contains("install -d -o chartwell -g chartwell -m 0700"));
    for (String copy : in.get("COPY")) {
      String source = copy.split("\\s+")[0];
      assertTrue(Files.isRegularFile(home.resolve(source)), "COPY source in the archive: " + copy);
    }
    String health = in.get("HEALTHCHECK").get(0);
    assertTrue(health.contains(HealthCheck.class.getName()), health);
    assertTrue(in.get("ENTRYPOINT").get(0).contains("/opt/chartwell/bin/chartwell"));
    // The outbound policy a 0.0.0.0 bind brings is explained where the image is defined.
    assertTrue(Files.readString(home.resolve("Dockerfile")).contains("CHARTWELL_ALLOW_OUTBOUND"));
  }

  @Test
  void theSystemdUnitIsHardenedAndValid() throws Exception {
    String unit = Files.readString(home.resolve("chartwell.service"));
    for (String line :
        List.of(
            "User=chartwell",
            "ProtectSystem=strict",
            "ReadWritePaths=/var/lib/chartwell",
            "Restart=on-failure",
            "NoNewPrivileges=true",
            "UMask=0077",
            "ExecStart=/opt/chartwell/bin/chartwell")) {
      assertTrue(unit.lines().anyMatch(l -> l.equals(line)), line);
    }
    Path analyze = Path.of("/usr/bin/systemd-analyze");
    if (!Files.isExecutable(analyze)) {
      System.err.println(
          "\n*** SKIPPED: systemd-analyze is not installed: unit not verified ***\n");
    }
    assumeTrue(Files.isExecutable(analyze), "SKIPPED: systemd-analyze is not installed");
    Path copy = dir.resolve("chartwell.service");
    Files.writeString(copy, unit.replace("/opt/chartwell", home.toString()));
    Process p =
        new ProcessBuilder(analyze.toString(), "verify", copy.toString())
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(60, TimeUnit.SECONDS));
    // verify exits 0 on unknown keys and bad values too; it names the file in each complaint.
    assertEquals(0, p.exitValue(), out);
    assertTrue(!out.contains(copy.toString()), out);
  }

  /** A Dockerfile's instructions (continuation lines joined, comments left out), by keyword. */
  static Map<String, List<String>> instructions(String dockerfile) {
    Map<String, List<String>> out = new LinkedHashMap<>();
    StringBuilder current = new StringBuilder();
    for (String line : dockerfile.split("\n")) {
      if (line.startsWith("#") || (current.length() == 0 && line.isBlank())) {
        continue;
      }
      current.append(line.endsWith("\\") ? line.substring(0, line.length() - 1) : line).append(' ');
      if (!line.endsWith("\\")) {
        String text = current.toString().strip().replaceAll("\\s+", " ");
        int space = text.indexOf(' ');
        out.computeIfAbsent(text.substring(0, space), k -> new ArrayList<>())
            .add(text.substring(space + 1));
        current.setLength(0);
      }
    }
    return out;
  }

  private static String run(Path cwd, String... command) throws Exception {
    Process p =
        new ProcessBuilder(command).directory(cwd.toFile()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(60, TimeUnit.SECONDS));
    assertEquals(0, p.exitValue(), out);
    return out;
  }

  /** The container health check's exit status for a server on this port. */
  private int healthCheck(int port) throws Exception {
    return exit(
        List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp",
            home.resolve("lib/chartwell-server.jar").toString(),
            HealthCheck.class.getName()),
        Map.of("CHARTWELL_PORT", String.valueOf(port)));
  }

  private static int exit(List<String> command, Map<String, String> env) throws Exception {
    ProcessBuilder b = new ProcessBuilder(command).redirectErrorStream(true);
    b.environment().putAll(env);
    Process p = b.start();
    p.getInputStream().readAllBytes();
    assertTrue(p.waitFor(60, TimeUnit.SECONDS));
    return p.exitValue();
  }
}
