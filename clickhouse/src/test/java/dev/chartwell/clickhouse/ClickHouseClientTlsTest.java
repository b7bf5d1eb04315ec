package dev.chartwell.clickhouse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsExchange;
import com.sun.net.httpserver.HttpsServer;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.ExtendedSSLSession;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Over HTTPS the client connects to the address its resolver checked, yet sends the host's name
 * (SNI) and verifies the certificate against it: a fake HTTPS server on 127.0.0.1 with a
 * certificate for {@code ch.example.test} (made by keytool), reached through a resolver of
 * literals. No name is looked up in DNS.
 */
class ClickHouseClientTlsTest {
  static final char[] PASSWORD = "changeit".toCharArray();

  @TempDir Path dir;
  HttpsServer server;
  SSLContext trusting;
  final List<String> seen = new CopyOnWriteArrayList<>();

  @BeforeEach
  void start() throws Exception {
    Path ks = dir.resolve("server.p12");
    Process p =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair",
                "-alias",
                "server",
                "-keyalg",
                "EC",
                "-dname",
                "CN=ch.example.test",
                "-ext",
                "SAN=dns:ch.example.test",
                "-validity",
                "2",
                "-storetype",
                "PKCS12",
                "-keystore",
                ks.toString(),
                "-storepass",
                new String(PASSWORD))
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, out);
    KeyStore store = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(ks)) {
      store.load(in, PASSWORD);
    }
    KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    kmf.init(store, PASSWORD);
    SSLContext serverTls = SSLContext.getInstance("TLS");
    serverTls.init(kmf.getKeyManagers(), null, null);
    KeyStore trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    trust.setCertificateEntry("server", store.getCertificate("server"));
    TrustManagerFactory tmf =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(trust);
    trusting = SSLContext.getInstance("TLS");
    trusting.init(null, tmf.getTrustManagers(), null);

    server = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
    server.setHttpsConfigurator(new HttpsConfigurator(serverTls));
    server.createContext(
        "/",
        x -> {
          String sni =
              ((ExtendedSSLSession) ((HttpsExchange) x).getSSLSession())
                  .getRequestedServerNames()
                  .toString();
          seen.add("Host=" + x.getRequestHeaders().getFirst("Host") + " SNI=" + sni);
          x.getRequestBody().readAllBytes();
          byte[] b = "1\n".getBytes(StandardCharsets.UTF_8);
          x.sendResponseHeaders(200, b.length);
          x.getResponseBody().write(b);
          x.close();
        });
    server.start();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  ClickHouseClient client(String host) {
    int port = server.getAddress().getPort();
    return new ClickHouseClient(
        new ClickHouseConnection(
            "tls",
            URI.create("https://" + host + ":" + port + "/"),
            "default",
            "pw",
            Duration.ofSeconds(10)),
        h -> {
          if (!h.endsWith(".example.test")) {
            throw new UnknownHostException(h);
          }
          return new InetAddress[] {InetAddress.getByAddress(h, new byte[] {127, 0, 0, 1})};
        },
        trusting);
  }

  @Test
  void theCheckedAddressIsReachedUnderTheHostsName() {
    assertEquals("1\n", client("ch.example.test").query("SELECT 1 FORMAT TabSeparated", null));
    int port = server.getAddress().getPort();
    assertEquals(1, seen.size(), seen.toString());
    assertTrue(seen.get(0).startsWith("Host=ch.example.test:" + port + " SNI="), seen.toString());
    assertTrue(seen.get(0).contains("value=ch.example.test"), seen.toString());
  }

  @Test
  void aCertificateForAnotherNameIsRefusedBeforeAnythingIsSent() {
    ClickHouseException e =
        assertThrows(
            ClickHouseException.class,
            () -> client("other.example.test").query("SELECT 1 FORMAT TabSeparated", null));
    assertEquals(ClickHouseException.Kind.UNREACHABLE, e.kind());
    assertTrue(e.getMessage().contains("SSLHandshakeException"), e.getMessage());
    assertEquals(List.of(), seen, "no request reached the server");
  }
}
