package dev.chartwell.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chartwell.server.alerts.AlertOptions;
import dev.chartwell.server.security.OutboundPolicy;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ServerConfigTest {
  private static ServerConfig parse(Map<String, String> env, String... args) throws Exception {
    return ServerConfig.parse(args, env);
  }

  private static String error(Map<String, String> env, String... args) {
    return assertThrows(ConfigException.class, () -> ServerConfig.parse(args, env)).getMessage();
  }

  @Test
  void lokiTable() throws Exception {
    assertEquals("loki_logs", parse(Map.of()).lokiTable());
    assertEquals("app_logs", parse(Map.of(), "--loki-table", "app_logs").lokiTable());
    assertEquals("env_logs", parse(Map.of("CHARTWELL_LOKI_TABLE", "env_logs")).lokiTable());
    assertTrue(error(Map.of(), "--loki-table", "Bad-Name").startsWith("--loki-table: must be"));
    assertTrue(error(Map.of(), "--loki-table", "1st").contains("not starting with a digit"));
  }

  @Test
  void metricsToken() throws Exception {
    assertEquals(Optional.empty(), parse(Map.of()).metricsToken());
    assertEquals(
        Optional.of("abcdefghij-0123456789"),
        parse(Map.of("CHARTWELL_METRICS_TOKEN", "abcdefghij-0123456789")).metricsToken());
    assertEquals(
        "--metrics-token must be 16 to 256 URL-safe characters (letters, digits, . _ ~ -)",
        error(Map.of(), "--metrics-token", "short"));
    assertEquals(
        "--metrics-token must be 16 to 256 URL-safe characters (letters, digits, . _ ~ -)",
        error(Map.of(), "--metrics-token", "has/slash/and:colon12345"));
  }

  @Test
  void defaults() throws Exception {
    ServerConfig c = parse(Map.of());
    assertEquals("127.0.0.1", c.host());
    assertEquals(8080, c.port());
    assertEquals(Path.of("./chartwell-data"), c.dataDir());
    assertEquals(Optional.empty(), c.orgId());
    assertEquals(Optional.empty(), c.apiKey());
    assertEquals("SCALE", c.orgTier());
    assertTrue(c.orgPaid());
    assertFalse(c.demo());
    assertEquals(Runtime.getRuntime().availableProcessors(), c.threads());
    assertEquals(1L << 20, c.maxRequestBytes());
    assertEquals(64L << 20, c.maxIngestBytes());
    assertEquals(dev.chartwell.server.http.ApiServer.Options.defaults(), c.http());
    assertEquals(java.time.Duration.ofSeconds(30), c.queryTimeout());
    assertEquals(ServerConfig.defaultQueryMemory(), c.queryMemoryBytes());
    assertEquals(Runtime.getRuntime().maxMemory() / 2, c.maxMemoryBytes());
  }

  @Test
  void otlpPort() throws Exception {
    assertEquals(java.util.OptionalInt.empty(), parse(Map.of()).otlpPort());
    assertEquals(java.util.OptionalInt.empty(), parse(Map.of(), "--otlp-port", "off").otlpPort());
    assertEquals(java.util.OptionalInt.of(4318), parse(Map.of(), "--otlp-port", "4318").otlpPort());
    assertEquals(java.util.OptionalInt.of(0), parse(Map.of("CHARTWELL_OTLP_PORT", "0")).otlpPort());
    assertEquals(
        "--otlp-port: must differ from the port of both APIs (9000), got '9000'",
        error(Map.of(), "--port", "9000", "--otlp-port", "9000"));
    assertEquals(
        "--otlp-port: must be an integer from 0 to 65535, got 'grpc'",
        error(Map.of(), "--otlp-port", "grpc"));
    assertTrue(ServerConfig.usage().contains("CHARTWELL_OTLP_PORT"));
  }

  @Test
  void elasticsearchPort() throws Exception {
    assertEquals(java.util.OptionalInt.empty(), parse(Map.of()).elasticsearchPort());
    assertEquals(
        java.util.OptionalInt.of(9200),
        parse(Map.of("CHARTWELL_ELASTICSEARCH_PORT", "9200")).elasticsearchPort());
    assertEquals(
        "--elasticsearch-port: must differ from the port of both APIs (9000), got '9000'",
        error(Map.of(), "--port", "9000", "--elasticsearch-port", "9000"));
    assertEquals(
        "--elasticsearch-port: must differ from --otlp-port, got '4318'",
        error(Map.of(), "--otlp-port", "4318", "--elasticsearch-port", "4318"));
    assertTrue(ServerConfig.usage().contains("CHARTWELL_ELASTICSEARCH_PORT"));
  }

  @Test
  void storageFlags() throws Exception {
    ServerConfig d = parse(Map.of());
    assertEquals(dev.chartwell.engine.FsyncPolicy.REQUEST, d.fsync());
    assertEquals(Optional.empty(), d.retention());
    assertEquals(java.util.OptionalLong.empty(), d.maxDiskBytes());
    ServerConfig c =
        parse(Map.of("CHARTWELL_RETENTION", "30d"), "--fsync", "interval:250", "--max-disk=50g");
    assertEquals(dev.chartwell.engine.FsyncPolicy.interval(250), c.fsync());
    assertEquals(Optional.of(java.time.Duration.ofDays(30)), c.retention());
    assertEquals(java.util.OptionalLong.of(50L << 30), c.maxDiskBytes());
    assertEquals(dev.chartwell.engine.FsyncPolicy.NEVER, parse(Map.of(), "--fsync=never").fsync());
    assertEquals(
        Optional.of(java.time.Duration.ofDays(14)), parse(Map.of(), "--retention=2w").retention());
    assertEquals(
        Optional.of(java.time.Duration.ofHours(12)),
        parse(Map.of(), "--retention=12h").retention());
    assertEquals(Optional.empty(), parse(Map.of(), "--retention=off").retention());
    assertEquals(
        java.util.OptionalLong.of(2_000L << 30), parse(Map.of(), "--max-disk=2t").maxDiskBytes());
    assertTrue(error(Map.of(), "--fsync", "sometimes").startsWith("--fsync: "));
    assertTrue(error(Map.of(), "--fsync", "interval:0").startsWith("--fsync: "));
    assertEquals(
        "--retention: must be a positive whole number of minutes, hours, days or weeks with its"
            + " unit m, h, d or w (for example 30d), or off, got '30 days'",
        error(Map.of(), "--retention", "30 days"));
    assertTrue(error(Map.of(), "--retention", "0d").startsWith("--retention: "));
    assertTrue(error(Map.of(), "--max-disk", "100k").startsWith("--max-disk: "), "below 1m");
    assertTrue(error(Map.of(), "--max-disk", "lots").startsWith("--max-disk: "));
  }

  @Test
  void tenantLimits() throws Exception {
    ServerConfig.TenantLimits d = parse(Map.of()).tenants();
    assertEquals(java.time.Duration.ofSeconds(30), d.sealIdle());
    assertEquals(java.util.OptionalLong.empty(), d.maxDiskPerService());
    assertEquals(50, d.maxQueriesPerService()); // a quarter of the 200 HTTP threads
    assertEquals(50, d.maxIngestsPerService());
    ServerConfig.TenantLimits c =
        parse(
                Map.of("CHARTWELL_MAX_DISK_PER_SERVICE", "2g"),
                "--seal-idle",
                "5m",
                "--http-threads",
                "8",
                "--max-ingests-per-service=3")
            .tenants();
    assertEquals(java.time.Duration.ofMinutes(5), c.sealIdle());
    assertEquals(java.util.OptionalLong.of(2L << 30), c.maxDiskPerService());
    assertEquals(2, c.maxQueriesPerService());
    assertEquals(3, c.maxIngestsPerService());
    assertTrue(error(Map.of(), "--max-queries-per-service", "0").startsWith("--max-queries"));
    assertTrue(error(Map.of(), "--seal-idle", "10ms").startsWith("--seal-idle"));
    assertTrue(ServerConfig.usage().contains("--max-disk-per-service SIZE"), ServerConfig.usage());
  }

  @Test
  void queryAndMemoryLimits() throws Exception {
    ServerConfig c =
        parse(
            Map.of("CHARTWELL_MAX_MEMORY", "300m"),
            "--query-timeout",
            "500ms",
            "--query-memory=64m");
    assertEquals(java.time.Duration.ofMillis(500), c.queryTimeout());
    assertEquals(64L << 20, c.queryMemoryBytes());
    assertEquals(300L << 20, c.maxMemoryBytes());
    assertEquals(
        java.time.Duration.ofMinutes(2), parse(Map.of(), "--query-timeout=2m").queryTimeout());
    assertEquals(
        java.time.Duration.ofHours(1), parse(Map.of(), "--query-timeout=1h").queryTimeout());
    assertEquals(
        "--query-timeout: must be a duration from 1ms to 24h with a unit: ms, s, m or h (for example 30s), got '0s'",
        error(Map.of(), "--query-timeout", "0s"));
    assertEquals(
        "--query-timeout: must be a duration from 1ms to 24h with a unit: ms, s, m or h (for example 30s), got '30'",
        error(Map.of(), "--query-timeout", "30"));
  }

  @Test
  void httpLimitsFromFlagsAndEnvironment() throws Exception {
    ServerConfig c =
        parse(
            Map.of("CHARTWELL_MAX_CONNECTIONS", "50", "CHARTWELL_BODY_TIMEOUT", "1500ms"),
            "--idle-timeout",
            "2m",
            "--header-timeout=5s",
            "--http-threads",
            "16",
            "--max-header-bytes",
            "32k");
    assertEquals(java.time.Duration.ofMinutes(2), c.http().idleTimeout());
    assertEquals(java.time.Duration.ofSeconds(5), c.http().headerTimeout());
    assertEquals(java.time.Duration.ofMillis(1500), c.http().bodyTimeout());
    assertEquals(50, c.http().maxConnections());
    assertEquals(16, c.http().maxThreads());
    assertEquals(32 << 10, c.http().maxHeaderBytes());
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "--idle-timeout|30|--idle-timeout: must be a duration from 100ms to 24h with a unit: ms, s,"
            + " m or h (for example 30s), got '30'",
        "--body-timeout|10ms|--body-timeout: must be a duration from 100ms to 24h with a unit: ms,"
            + " s, m or h (for example 30s), got '10ms'",
        "--http-threads|4|--http-threads: must be an integer from 8 to 10000, got '4'",
        "--max-connections|0|--max-connections: must be an integer from 1 to 1000000, got '0'",
        "--max-header-bytes|100|--max-header-bytes: must be a positive size in bytes, optionally"
            + " with k, m or g from 1024 to 1048576 bytes, got '100'"
      })
  void badHttpLimits(String flag, String value, String message) {
    assertEquals(message, error(Map.of(), flag, value));
  }

  @Test
  void everyFlagInBothSpellings() throws Exception {
    ServerConfig c =
        parse(
            Map.of(),
            "--host=0.0.0.0",
            "--port",
            "9000",
            "--data-dir",
            "/tmp/cw",
            "--org-id=3F2504E0-4F89-41D3-9A0C-0305E82C3301",
            "--api-key",
            "KEY1:supersecret",
            "--org-tier",
            "enterprise",
            "--org-paid=false",
            "--demo",
            "--threads",
            "3",
            "--max-request-bytes=2k",
            "--max-ingest-bytes",
            "1g");
    assertEquals("0.0.0.0", c.host());
    assertEquals(9000, c.port());
    assertEquals(Path.of("/tmp/cw"), c.dataDir());
    assertEquals(Optional.of("3f2504e0-4f89-41d3-9a0c-0305e82c3301"), c.orgId());
    assertEquals(new ServerConfig.ApiKeySpec("KEY1", "supersecret"), c.apiKey().orElseThrow());
    assertEquals("ENTERPRISE", c.orgTier());
    assertFalse(c.orgPaid());
    assertTrue(c.demo());
    assertEquals(3, c.threads());
    assertEquals(2048, c.maxRequestBytes());
    assertEquals(1L << 30, c.maxIngestBytes());
  }

  @Test
  void environmentVariablesAndFlagPrecedence() throws Exception {
    Map<String, String> env =
        Map.of(
            "CHARTWELL_PORT", "7000",
            "CHARTWELL_DATA_DIR", "/var/cw",
            "CHARTWELL_DEMO", "true",
            "CHARTWELL_ORG_PAID", "0",
            "CHARTWELL_API_KEY", "ENVKEY:envsecret1");
    ServerConfig fromEnv = parse(env);
    assertEquals(7000, fromEnv.port());
    assertEquals(Path.of("/var/cw"), fromEnv.dataDir());
    assertTrue(fromEnv.demo());
    assertFalse(fromEnv.orgPaid());
    assertEquals("ENVKEY", fromEnv.apiKey().orElseThrow().keyId());

    ServerConfig flagWins = parse(env, "--port", "7001", "--demo=false");
    assertEquals(7001, flagWins.port());
    assertFalse(flagWins.demo());
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "--port=abc|--port: must be an integer from 0 to 65535, got 'abc'",
        "--port=70000|--port: must be an integer from 0 to 65535, got '70000'",
        "--threads=0|--threads: must be an integer from 1 to 1024, got '0'",
        "--org-tier=GOLD|--org-tier: must be one of BASIC, SCALE, ENTERPRISE, got 'GOLD'",
        "--org-paid=maybe|--org-paid: must be true or false, got 'maybe'",
        "--org-id=not-a-uuid|--org-id: must be a UUID, got 'not-a-uuid'",
        "--host=example.com|--host: must be an IPv4 or IPv6 address or 'localhost', got 'example.com'",
        "--max-ingest-bytes=-5|--max-ingest-bytes: must be a positive size in bytes, optionally"
            + " with k, m or g, got '-5'",
        "--api-key=nocolon|--api-key: expected KEYID:SECRET; secret must be 8-256 printable"
            + " characters without spaces",
        "--nope|unknown flag --nope",
        "stray|unexpected argument 'stray' (flags start with --)",
      })
  void badFlagValuesAreOneLineErrors(String arg, String message) {
    assertEquals(message, error(Map.of(), arg));
  }

  @Test
  void badEnvironmentValueNamesTheVariable() {
    assertEquals(
        "CHARTWELL_PORT: must be an integer from 0 to 65535, got 'x'",
        error(Map.of("CHARTWELL_PORT", "x")));
  }

  @Test
  void missingValueAndRepeatedFlag() {
    assertEquals("--port needs a value (PORT)", error(Map.of(), "--port"));
    assertEquals("--port is given more than once", error(Map.of(), "--port=1", "--port=2"));
  }

  @Test
  void secretNeverAppearsInErrorsOrToString() throws Exception {
    String msg = error(Map.of(), "--api-key=bad key!:short");
    assertFalse(msg.contains("short"), msg);
    assertFalse(parse(Map.of(), "--api-key=K:verysecret").toString().contains("verysecret"));
  }

  @Test
  void alertDeliveryFlags() throws Exception {
    AlertOptions defaults = parse(Map.of()).alerts();
    assertEquals(AlertOptions.DEFAULTS, defaults);
    AlertOptions o =
        parse(
                Map.of("CHARTWELL_WEBHOOK_ATTEMPTS", "5"),
                "--webhook-timeout=2s",
                "--webhook-retry-delay",
                "500ms",
                "--webhook-deny-private",
                "--frontend-url=https://hyperdx.example.com/app")
            .alerts();
    assertEquals(
        new AlertOptions(
            java.time.Duration.ofSeconds(2),
            5,
            java.time.Duration.ofMillis(500),
            Optional.of("https://hyperdx.example.com/app")),
        o);
    assertEquals(
        "--webhook-attempts: must be an integer from 1 to 10, got '0'",
        error(Map.of(), "--webhook-attempts=0"));
    assertEquals(
        "--frontend-url: must be an http or https URL without query, got 'ftp://x/'",
        error(Map.of(), "--frontend-url=ftp://x/"));
    assertEquals(
        "--frontend-url: must be an http or https URL without query, got 'https://x/?a=1'",
        error(Map.of(), "--frontend-url=https://x/?a=1"));
  }

  @Test
  void helpIsRequestedAndListsEveryFlagWithItsVariable() {
    assertThrows(ServerConfig.HelpRequested.class, () -> parse(Map.of(), "--port=1", "--help"));
    String usage = ServerConfig.usage();
    for (String flag :
        new String[] {
          "host",
          "port",
          "data-dir",
          "org-id",
          "api-key",
          "org-tier",
          "org-paid",
          "demo",
          "threads",
          "webhook-timeout",
          "webhook-attempts",
          "webhook-retry-delay",
          "webhook-deny-private",
          "allow-outbound",
          "frontend-url",
          "tls-cert",
          "tls-key",
          "tls-self-signed",
          "tls-check-every"
        }) {
      assertTrue(usage.contains("--" + flag), flag);
      assertTrue(
          usage.contains("CHARTWELL_" + flag.toUpperCase(java.util.Locale.ROOT).replace('-', '_')),
          flag);
    }
  }

  @Test
  void theOutboundPolicyFollowsTheBindAddressAndTheFlags() throws Exception {
    assertEquals(OutboundPolicy.Mode.OPEN, parse(Map.of()).outboundPolicy().mode());
    assertEquals(
        OutboundPolicy.Mode.OPEN, parse(Map.of(), "--host", "::1").outboundPolicy().mode());
    assertEquals(
        OutboundPolicy.Mode.OPEN, parse(Map.of(), "--host", "localhost").outboundPolicy().mode());
    OutboundPolicy exposed = parse(Map.of(), "--host", "0.0.0.0").outboundPolicy();
    assertEquals(OutboundPolicy.Mode.RESTRICTED, exposed.mode());
    assertEquals("a link-local address", exposed.refusal(InetAddress.getByName("169.254.169.254")));
    assertEquals(
        OutboundPolicy.Mode.RESTRICTED,
        parse(Map.of(), "--host", "192.168.1.10").outboundPolicy().mode());
    assertEquals(
        OutboundPolicy.Mode.RESTRICTED,
        parse(Map.of(), "--webhook-deny-private").outboundPolicy().mode(),
        "the deprecated flag restricts a loopback server");
    ServerConfig allowing =
        parse(Map.of("CHARTWELL_ALLOW_OUTBOUND", "10.0.0.0/8, fd00::/8"), "--host", "0.0.0.0");
    assertEquals("[10.0.0.0/8, fd00:0:0:0:0:0:0:0/8]", allowing.allowOutbound().toString());
    assertEquals(null, allowing.outboundPolicy().refusal(InetAddress.getByName("10.1.2.3")));
    assertEquals(
        "a private address",
        allowing.outboundPolicy().refusal(InetAddress.getByName("192.168.1.1")));
    assertTrue(
        error(Map.of(), "--allow-outbound=10.0.0.0/40")
            .startsWith(
                "--allow-outbound: must be a comma-separated list of IPv4 or IPv6 ranges such as"
                    + " 10.0.0.0/8,fd00::/8"),
        error(Map.of(), "--allow-outbound=10.0.0.0/40"));
    assertTrue(
        error(Map.of(), "--allow-outbound=internal.example.test")
            .contains("got 'internal.example.test'"));
  }

  @Test
  void tlsFlags() throws Exception {
    assertEquals(Optional.empty(), parse(Map.of()).tls());
    ServerConfig files =
        parse(Map.of("CHARTWELL_TLS_KEY", "/etc/k.pem"), "--tls-cert", "/etc/c.pem");
    assertEquals(
        new ServerConfig.TlsSpec(
            Path.of("/etc/c.pem"), Path.of("/etc/k.pem"), false, java.time.Duration.ofSeconds(10)),
        files.tls().orElseThrow());
    ServerConfig self = parse(Map.of(), "--tls-self-signed", "--tls-check-every=500ms");
    assertTrue(self.tls().orElseThrow().selfSigned());
    assertEquals(java.time.Duration.ofMillis(500), self.tls().orElseThrow().checkEvery());
    assertEquals(
        "--tls-cert needs --tls-key too: the certificate chain and its private key, both PEM files",
        error(Map.of(), "--tls-cert", "c.pem"));
    assertEquals(
        "CHARTWELL_TLS_KEY needs --tls-cert too: the certificate chain and its private key, both"
            + " PEM files",
        error(Map.of("CHARTWELL_TLS_KEY", "k.pem")));
    assertTrue(
        error(Map.of(), "--tls-self-signed", "--tls-cert=c", "--tls-key=k")
            .startsWith("--tls-self-signed makes its own certificate"));
  }

  @Test
  void helpSaysWhatChartwellIsGivesAnExampleAndNamesEachValueSyntax() {
    String usage = ServerConfig.usage();
    String[] lines = usage.split("\n");
    assertTrue(lines[0].startsWith("Chartwell: a chart query engine"), lines[0]);
    assertTrue(usage.contains("\nExample: java -jar chartwell-server.jar --demo"), usage);
    assertTrue(usage.contains("\nDocs: " + ServerConfig.DOCS), usage);
    assertTrue(usage.contains("--retention AGE"), usage);
    assertTrue(usage.contains("DURATION is a number with ms, s, m or h"), usage);
    assertTrue(usage.contains("AGE a whole number with m, h, d or w"), usage);
  }

  @Test
  void helpPointsAtTlsToExpose() {
    String usage = ServerConfig.usage();
    assertFalse(usage.contains("0.0.0.0 to expose"), usage);
    assertTrue(usage.contains("to expose it, also give --tls-cert/--tls-key"), usage);
  }

  @ParameterizedTest
  @CsvSource({
    "127.0.0.1, true",
    "127.1.2.3, true",
    "localhost, true",
    "::1, true",
    "0.0.0.0, false",
    "10.1.2.3, false",
    "::, false",
    "fd00::1, false"
  })
  void loopbackOnly(String host, boolean loopback) throws Exception {
    assertEquals(loopback, parse(Map.of(), "--host", host).loopbackOnly(), host);
  }
}
