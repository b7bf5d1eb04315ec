package dev.chartwell.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.chartwell.server.http.HttpTestClient;
import dev.chartwell.server.http.Pem;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * HTTPS on the main port and on {@code --otlp-port} with PEM files (the fixtures in {@code
 * src/test/resources/tls}, see the README there): the JDK client and curl trusting the test CA,
 * plain HTTP answered in our words, HSTS only to a host that is not loopback, TLS 1.1 refused, the
 * files re-read when they change (a broken change keeps the old certificate), and {@code
 * --tls-self-signed} made once and reused.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TlsIntegrationTest {
  static final ObjectMapper MAPPER = new ObjectMapper();
  static final String ADMIN = HttpTestClient.basic("ADMIN", "adminsecret1");

  @TempDir static Path dir;
  ChartwellServer server;
  Path ca;
  HttpClient client;
  ByteArrayOutputStream log = new ByteArrayOutputStream();

  static Path fixture(String name) throws Exception {
    return Path.of(TlsIntegrationTest.class.getResource("/tls/" + name).toURI());
  }

  static ChartwellServer start(Path dataDir, OutputStream log, String... extra) throws Exception {
    List<String> args =
        new ArrayList<>(
            List.of(
                "--port",
                "0",
                "--data-dir",
                dataDir.toString(),
                "--org-id",
                TestServers.ORG,
                "--api-key",
                "ADMIN:adminsecret1"));
    args.addAll(List.of(extra));
    return ChartwellServer.start(
        ServerConfig.parse(args.toArray(String[]::new), Map.of()),
        new PrintStream(log, true, StandardCharsets.UTF_8),
        TestServers.FAST);
  }

  @BeforeAll
  void start() throws Exception {
    ca = fixture("ca.pem");
    server =
        start(
            dir.resolve("data"),
            log,
            "--tls-cert",
            fixture("server.pem").toString(),
            "--tls-key",
            fixture("server-key.pem").toString(),
            "--otlp-port",
            "0");
    client =
        HttpClient.newBuilder()
            .sslContext(trusting(ca))
            .connectTimeout(Duration.ofSeconds(10))
            .build();
  }

  @AfterAll
  void stop() throws IOException {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void theJdkClientTrustingTheCaIsServedOnBothPorts() throws Exception {
    for (int port : new int[] {server.port(), server.otlpPort().getAsInt()}) {
      HttpResponse<String> health = send(port, "GET", "/health", null, null);
      assertEquals(200, health.statusCode(), health.body());
      assertEquals("{\"status\":\"ok\"}", health.body().replace(" ", ""));
    }
    String base = "/v1/organizations/" + TestServers.ORG + "/services";
    HttpResponse<String> created =
        send(
            server.port(),
            "POST",
            base,
            "{\"name\":\"Tls\",\"provider\":\"aws\",\"region\":\"us-east-1\"}",
            ADMIN);
    assertEquals(200, created.statusCode(), created.body());
    JsonNode result = MAPPER.readTree(created.body()).get("result");
    String token = result.get("password").textValue();
    String id = result.get("service").get("id").textValue();
    Await.until(
        "service running",
        () ->
            MAPPER
                .readTree(send(server.port(), "GET", base + "/" + id, null, ADMIN).body())
                .get("result")
                .get("state")
                .textValue()
                .equals("running"));
    String logs =
        "{\"resourceLogs\":[{\"resource\":{\"attributes\":[{\"key\":\"service.name\","
            + "\"value\":{\"stringValue\":\"tls\"}}]},\"scopeLogs\":[{\"logRecords\":["
            + "{\"timeUnixNano\":\""
            + System.currentTimeMillis() * 1_000_000L
            + "\",\"body\":{\"stringValue\":\"over https\"}}]}]}]}";
    for (int port : new int[] {server.port(), server.otlpPort().getAsInt()}) {
      HttpResponse<String> ingested = send(port, "POST", "/v1/logs", logs, "Bearer " + token);
      assertEquals(
          200, ingested.statusCode(), "OTLP logs on port " + port + ": " + ingested.body());
    }
    assertTrue(
        banner().get(0).startsWith("Chartwell listening on https://127.0.0.1:"), banner().get(0));
    assertTrue(banner().get(1).startsWith("OTLP/HTTP listening on https://"), banner().get(1));
    assertTrue(
        banner()
            .contains(
                "TLS certificate SHA-256 fingerprint: "
                    + Pem.Identity.fingerprint(Pem.certificates(read("server.pem")).get(0))),
        banner().toString());
    assertTrue(
        banner().stream().anyMatch(l -> l.startsWith("web UI: https://")), banner().toString());
  }

  @Test
  void curlTrustingTheCaGets200() throws Exception {
    Path curl = Path.of("/usr/bin/curl");
    if (!Files.isExecutable(curl)) {
      System.err.println("\n*** SKIPPED: curl is not installed (apt-get install -y curl) ***\n");
    }
    assumeTrue(
        Files.isExecutable(curl), "SKIPPED: curl is not installed (apt-get install -y curl)");
    for (int port : new int[] {server.port(), server.otlpPort().getAsInt()}) {
      Process p =
          new ProcessBuilder(
                  curl.toString(),
                  "-sS",
                  "--max-time",
                  "30",
                  "--cacert",
                  ca.toString(),
                  "-w",
                  "\n%{http_code} %{ssl_verify_result}",
                  "https://127.0.0.1:" + port + "/health")
              .redirectErrorStream(true)
              .start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(p.waitFor(60, TimeUnit.SECONDS));
      assertEquals(0, p.exitValue(), out);
      assertTrue(out.endsWith("\n200 0"), out);
    }
  }

  @Test
  void plainHttpOnATlsPortIsAnsweredInOurWords() throws Exception {
    for (int port : new int[] {server.port(), server.otlpPort().getAsInt()}) {
      try (Socket s = new Socket("127.0.0.1", port)) {
        s.setSoTimeout(30_000);
        s.getOutputStream()
            .write(
                ("GET /health HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
        String answer = new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(answer.startsWith("HTTP/1.1 400 "), answer);
        assertTrue(answer.contains("Connection: close"), answer);
        assertTrue(
            answer.contains(
                "BAD_REQUEST: this port speaks HTTPS: use https://127.0.0.1:" + port + "/"),
            answer);
      }
    }
  }

  @Test
  void hstsOverTlsOnlyToAHostThatIsNotLoopback() throws Exception {
    String named = rawHttps(server.port(), "GET / HTTP/1.1\r\nHost: chartwell.example.com\r\n");
    assertTrue(named.startsWith("HTTP/1.1 200 "), named);
    assertTrue(named.contains("\r\nStrict-Transport-Security: max-age=31536000\r\n"), named);
    for (String host : new String[] {"127.0.0.1:" + server.port(), "localhost", "[::1]"}) {
      String loopback = rawHttps(server.port(), "GET / HTTP/1.1\r\nHost: " + host + "\r\n");
      assertTrue(loopback.startsWith("HTTP/1.1 200 "), loopback);
      assertFalse(loopback.contains("Strict-Transport-Security"), host + ": " + loopback);
    }
  }

  @Test
  void aTls11ClientIsRefusedAndTls12Served() throws Exception {
    // The JDK bans TLS 1.0 and 1.1 in its own security settings; the child lifts that ban for
    // itself, so that the refusal seen is the server's (an alert from it), not the client's.
    Path security = dir.resolve("old-tls.security");
    Files.writeString(
        security,
        "jdk.tls.disabledAlgorithms=SSLv3, RC4, DES, MD5withRSA, DH keySize < 1024,"
            + " EC keySize < 224, 3DES_EDE_CBC, anon, NULL\n");
    Process child =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx64m",
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                "-Djava.security.properties=" + security,
                "-cp",
                System.getProperty("java.class.path"),
                OldTlsClientChild.class.getName(),
                Integer.toString(server.port()),
                "TLSv1.1",
                "TLSv1",
                "TLSv1.2")
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(child.waitFor(60, TimeUnit.SECONDS));
    List<String> lines = out.lines().toList();
    assertEquals(3, lines.size(), out);
    for (String old : lines.subList(0, 2)) {
      assertTrue(old.startsWith("REFUSED ") && old.contains("Received fatal alert"), out);
    }
    assertEquals("OK TLSv1.2", lines.get(2), out);
  }

  @Test
  void changedFilesAreUsedWithoutARestartAndABrokenChangeKeepsTheOldCertificate() throws Exception {
    Path files = Files.createDirectories(dir.resolve("rotating"));
    Path cert = files.resolve("fullchain.pem");
    Path key = files.resolve("privkey.pem");
    Files.copy(fixture("server.pem"), cert);
    Files.copy(fixture("server-key.pem"), key);
    String first = Pem.Identity.fingerprint(Pem.certificates(read("server.pem")).get(0));
    String second = Pem.Identity.fingerprint(Pem.certificates(read("server2.pem")).get(0));
    ByteArrayOutputStream rotatingLog = new ByteArrayOutputStream();
    try (ChartwellServer rotating =
        start(
            dir.resolve("rotating-data"),
            rotatingLog,
            "--tls-cert",
            cert.toString(),
            "--tls-key",
            key.toString(),
            "--tls-check-every",
            "100ms")) {
      assertEquals(first, presented(rotating.port()));

      // A broken certificate file: the old certificate stays, and one line says why.
      replace(cert, "-----BEGIN CERTIFICATE-----\nnot base64 at all!\n-----END CERTIFICATE-----\n");
      Await.until(
          "the refusal logged",
          () ->
              rotatingLog.toString(StandardCharsets.UTF_8).contains("previous certificate stays"));
      String line =
          rotatingLog
              .toString(StandardCharsets.UTF_8)
              .lines()
              .filter(l -> l.contains("previous certificate stays"))
              .findFirst()
              .orElseThrow();
      assertTrue(line.contains("--tls-cert " + cert), line);
      assertEquals(first, presented(rotating.port()));
      assertEquals(200, send(rotating.port(), "GET", "/health", null, null).statusCode());

      // The renewed pair (an RSA key in PKCS#1 form this time): new handshakes present it.
      replace(key, read("server2-key-rsa.pem"));
      replace(cert, read("server2.pem"));
      Await.until(
          "the second certificate presented", () -> presented(rotating.port()).equals(second));
      assertEquals(200, send(rotating.port(), "GET", "/health", null, null).statusCode());
      assertTrue(
          rotatingLog.toString(StandardCharsets.UTF_8).contains("TLS certificate reloaded from"),
          rotatingLog.toString(StandardCharsets.UTF_8));
    }
  }

  @Test
  void aSelfSignedCertificateIsMadeOnceKeptAndItsFingerprintPrinted() throws Exception {
    Path data = dir.resolve("self-signed");
    String fingerprint;
    try (ChartwellServer first = start(data, new ByteArrayOutputStream(), "--tls-self-signed")) {
      Path pem = data.resolve("tls/self-signed.pem");
      Path store = data.resolve("tls/self-signed.p12");
      assertTrue(Files.exists(pem) && Files.exists(store));
      assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(pem)));
      assertEquals(
          "rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(store)));
      assertEquals(
          "rwx------",
          PosixFilePermissions.toString(Files.getPosixFilePermissions(data.resolve("tls"))));
      fingerprint = Pem.Identity.fingerprint(Pem.certificates(Files.readString(pem)).get(0));
      assertTrue(
          first.banner().contains("TLS certificate SHA-256 fingerprint: " + fingerprint),
          first.banner().toString());
      assertEquals(fingerprint, presented(first.port()));
      HttpClient trustingIt = HttpClient.newBuilder().sslContext(trusting(pem)).build();
      HttpResponse<String> health =
          trustingIt.send(
              HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + first.port() + "/health"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertEquals(200, health.statusCode());
    }
    byte[] kept = Files.readAllBytes(data.resolve("tls/self-signed.p12"));
    try (ChartwellServer again = start(data, new ByteArrayOutputStream(), "--tls-self-signed")) {
      assertEquals(fingerprint, presented(again.port()));
      assertTrue(
          again.banner().contains("TLS certificate SHA-256 fingerprint: " + fingerprint),
          again.banner().toString());
    }
    assertTrue(
        java.util.Arrays.equals(kept, Files.readAllBytes(data.resolve("tls/self-signed.p12"))));
  }

  @Test
  void unusableFilesStopTheStartWithTheReason() throws Exception {
    Path bad = dir.resolve("bad.pem");
    Files.writeString(bad, "hello");
    for (String[] args :
        new String[][] {
          {"--tls-cert", bad.toString(), "--tls-key", fixture("server-key.pem").toString()},
          {"--tls-cert", fixture("server.pem").toString(), "--tls-key", bad.toString()},
          {
            "--tls-cert",
            fixture("server2.pem").toString(),
            "--tls-key",
            fixture("server-key.pem").toString()
          },
          {"--tls-cert", dir.resolve("missing.pem").toString(), "--tls-key", bad.toString()}
        }) {
      IOException e =
          org.junit.jupiter.api.Assertions.assertThrows(
              IOException.class,
              () -> start(dir.resolve("never"), new ByteArrayOutputStream(), args));
      assertTrue(e.getMessage().startsWith("--tls-"), e.getMessage());
      assertFalse(Files.exists(dir.resolve("never")), "the data directory is not touched");
    }
  }

  private List<String> banner() {
    return server.banner();
  }

  private HttpResponse<String> send(
      int port, String method, String path, String body, String authorization) throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + port + path))
            .timeout(Duration.ofSeconds(30))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
    if (body != null) {
      b.header("Content-Type", "application/json");
    }
    if (authorization != null) {
      b.header("Authorization", authorization);
    }
    return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** One request over TLS written as given (so that any Host can be sent), and the answer. */
  private String rawHttps(int port, String head) throws Exception {
    try (SSLSocket s =
        (SSLSocket) trusting(ca).getSocketFactory().createSocket("127.0.0.1", port)) {
      s.setSoTimeout(30_000);
      s.getOutputStream()
          .write((head + "Connection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      s.getOutputStream().flush();
      try (InputStream in = s.getInputStream()) {
        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
      }
    }
  }

  /** The SHA-256 fingerprint of the certificate a new handshake presents, whoever signed it. */
  static String presented(int port) throws Exception {
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, new TrustManager[] {TRUST_ALL}, null);
    try (SSLSocket s = (SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", port)) {
      s.setSoTimeout(30_000);
      s.startHandshake();
      return Pem.Identity.fingerprint(s.getSession().getPeerCertificates()[0]);
    }
  }

  static SSLContext trusting(Path caPem) throws Exception {
    KeyStore trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    int i = 0;
    for (X509Certificate c : Pem.certificates(Files.readString(caPem))) {
      trust.setCertificateEntry("ca" + i++, c);
    }
    TrustManagerFactory tmf =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(trust);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, tmf.getTrustManagers(), null);
    return context;
  }

  private static String read(String fixture) throws Exception {
    return Files.readString(fixture(fixture));
  }

  /** Replaces a file's content at once, as a renewal tool does (write aside, then rename). */
  private static void replace(Path file, String content) throws IOException {
    Path tmp = file.resolveSibling(file.getFileName() + ".new");
    Files.writeString(tmp, content);
    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  private static final X509TrustManager TRUST_ALL =
      new X509TrustManager() {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {}

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {}

        @Override
        public X509Certificate[] getAcceptedIssuers() {
          return new X509Certificate[0];
        }
      };
}
