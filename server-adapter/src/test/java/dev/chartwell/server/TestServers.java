package dev.chartwell.server;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Starts a real server on a free loopback port with the organization and admin key tests use. */
public final class TestServers {
  /** The organization id every API test server is started with. */
  public static final String ORG = "3f2504e0-4f89-41d3-9a0c-0305e82c3301";

  private TestServers() {}

  /**
   * @param dataDir the server's data directory
   * @param extra further command-line options, appended after the common ones
   * @return a running server with key {@code ADMIN:adminsecret1}; its log output is discarded
   */
  public static ChartwellServer start(Path dataDir, String... extra) throws Exception {
    return start(dataDir, FAST, extra);
  }

  /**
   * @param dataDir the server's data directory
   * @param alertClock the clock its alerts and API keys follow (no alert threads run: the test
   *     drives them), or {@code null} for the system clock and the threads
   * @param extra further command-line options
   * @return a running server with key {@code ADMIN:adminsecret1}
   */
  public static ChartwellServer start(Path dataDir, java.time.Clock alertClock, String... extra)
      throws Exception {
    return start(
        dataDir,
        alertClock == null
            ? FAST
            : new ChartwellServer.Overrides(alertClock, false, Duration.ZERO, null),
        extra);
  }

  /**
   * Services of test servers end their transitions at once: a test that looks at a service in the
   * middle of one holds them with its own {@link ChartwellServer.Overrides#transitions()}.
   */
  public static final ChartwellServer.Overrides FAST =
      new ChartwellServer.Overrides(Clock.systemUTC(), true, Duration.ZERO, null);

  /**
   * @param dataDir the server's data directory
   * @param overrides its clocks and timers
   * @param extra further command-line options
   * @return a running server with key {@code ADMIN:adminsecret1}
   */
  public static ChartwellServer start(
      Path dataDir, ChartwellServer.Overrides overrides, String... extra) throws Exception {
    List<String> args =
        new ArrayList<>(
            List.of(
                "--port",
                "0",
                "--data-dir",
                dataDir.toString(),
                "--org-id",
                ORG,
                "--api-key",
                "ADMIN:adminsecret1",
                // API key secrets hashed at the lowest cost: tests make many keys
                "--key-hash-iterations",
                "1000"));
    args.addAll(List.of(extra));
    return ChartwellServer.start(
        ServerConfig.parse(args.toArray(String[]::new), Map.of()),
        Boolean.getBoolean("TEST_SERVER_LOG")
            ? System.err
            : new PrintStream(new ByteArrayOutputStream(), true),
        overrides);
  }
}
