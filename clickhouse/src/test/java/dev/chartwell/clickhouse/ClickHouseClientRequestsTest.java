package dev.chartwell.clickhouse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * How the client reaches a server and reports its failures, against a fake HTTP interface on
 * 127.0.0.1: it connects to the address its resolver checked, naming the host in {@code Host};
 * nothing is sent where the resolver refuses; a failed answer is reported by status and code, never
 * by its text; redirects are not followed. No name is looked up in DNS.
 */
class ClickHouseClientRequestsTest {
  static final String SECRET = "SECRET-REMOTE-TEXT";

  HttpServer server;
  final List<String> hosts = new CopyOnWriteArrayList<>();
  volatile int status = 200;
  volatile Map<String, String> headers = Map.of();
  volatile String body = "1\n";

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
    server.createContext(
        "/",
        x -> {
          hosts.add(x.getRequestHeaders().getFirst("Host"));
          x.getRequestBody().readAllBytes();
          headers.forEach((k, v) -> x.getResponseHeaders().add(k, v));
          byte[] b = body.getBytes(StandardCharsets.UTF_8);
          x.sendResponseHeaders(status, b.length);
          x.getResponseBody().write(b);
          x.close();
        });
    server.start();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  int port() {
    return server.getAddress().getPort();
  }

  ClickHouseClient client(String host, ClickHouseClient.Addresses addresses) {
    return new ClickHouseClient(
        new ClickHouseConnection(
            "fake",
            URI.create("http://" + host + ":" + port() + "/"),
            "default",
            "pw",
            Duration.ofSeconds(5)),
        addresses);
  }

  static InetAddress[] loopback(String host) throws UnknownHostException {
    if (!host.equals("ch.example.test")) {
      throw new UnknownHostException(host);
    }
    return new InetAddress[] {InetAddress.getByAddress(host, new byte[] {127, 0, 0, 1})};
  }

  @Test
  void theCheckedAddressIsConnectedToWithTheHostNamed() {
    List<String> asked = new CopyOnWriteArrayList<>();
    ClickHouseClient c =
        client(
            "ch.example.test",
            h -> {
              asked.add(h);
              return loopback(h);
            });
    assertEquals("1\n", c.query("SELECT 1 FORMAT TabSeparated", null));
    assertEquals(List.of("ch.example.test"), asked, "resolved once, through the resolver");
    assertEquals(List.of("ch.example.test:" + port()), hosts);
  }

  @Test
  void aRefusedOrUnknownHostSendsNothing() {
    ClickHouseException e =
        assertThrows(
            ClickHouseException.class,
            () ->
                client(
                        "ch.example.test",
                        h -> {
                          throw new IOException("ch.example.test is refused here");
                        })
                    .query("SELECT 1", null));
    assertEquals(ClickHouseException.Kind.REFUSED, e.kind());
    assertEquals(
        "connection 'fake' (http://ch.example.test:"
            + port()
            + "): ch.example.test is refused here",
        e.getMessage());
    e =
        assertThrows(
            ClickHouseException.class,
            () ->
                client("other.example.test", ClickHouseClientRequestsTest::loopback)
                    .query("SELECT 1", null));
    assertEquals(ClickHouseException.Kind.UNREACHABLE, e.kind());
    assertTrue(e.getMessage().endsWith("cannot resolve other.example.test"), e.getMessage());
    assertEquals(List.of(), hosts, "nothing was sent");
  }

  @Test
  void failuresAreNamedByStatusAndCodeNeverByTheirText() {
    ClickHouseClient c = client("127.0.0.1", InetAddress::getAllByName);
    status = 400;
    body = "Code: 62. DB::Exception: Syntax error: " + SECRET + ". (SYNTAX_ERROR)";
    ClickHouseException e = assertThrows(ClickHouseException.class, () -> c.query("SELEC", null));
    assertEquals(ClickHouseException.Kind.REJECTED, e.kind());
    assertEquals(
        "connection 'fake' (http://127.0.0.1:"
            + port()
            + "): ClickHouse rejected the query (HTTP 400, ClickHouse error code 62 SYNTAX_ERROR)",
        e.getMessage());
    headers = Map.of("X-ClickHouse-Exception-Code", "159");
    body = SECRET;
    e = assertThrows(ClickHouseException.class, () -> c.query("SELECT 1", null));
    assertEquals(ClickHouseException.Kind.TIMEOUT, e.kind());
    assertTrue(
        e.getMessage().contains("(HTTP 400, ClickHouse error code 159 TIMEOUT_EXCEEDED)"),
        e.getMessage());
    headers = Map.of("X-ClickHouse-Exception-Code", "99999");
    e = assertThrows(ClickHouseException.class, () -> c.query("SELECT 1", null));
    assertTrue(e.getMessage().endsWith("(HTTP 400, ClickHouse error code 99999)"), e.getMessage());
    headers = Map.of();
    status = 502;
    body = "<html>" + SECRET + "</html>";
    e =
        assertThrows(
            ClickHouseException.class,
            () -> c.insert("INSERT INTO t FORMAT JSONEachRow", new byte[0]));
    assertTrue(e.getMessage().endsWith("ClickHouse rejected the query (HTTP 502)"), e.getMessage());
    assertFalse(e.getMessage().contains(SECRET));
  }

  @Test
  void redirectsAreNotFollowed() {
    ClickHouseClient c = client("127.0.0.1", InetAddress::getAllByName);
    status = 307;
    headers = Map.of("Location", "http://127.0.0.1:" + port() + "/elsewhere");
    ClickHouseException e =
        assertThrows(ClickHouseException.class, () -> c.query("SELECT 1", null));
    assertTrue(
        e.getMessage().endsWith("HTTP 307 (a redirect); redirects are not followed"),
        e.getMessage());
    assertEquals(1, hosts.size(), "one request: the redirect was not followed");
  }

  @Test
  void whatANonHttpServiceSaysIsNotQuoted() throws Exception {
    try (java.net.ServerSocket banner =
        new java.net.ServerSocket(0, 4, InetAddress.getByName("127.0.0.1"))) {
      Thread t =
          new Thread(
              () -> {
                try (java.net.Socket s = banner.accept()) {
                  s.getOutputStream()
                      .write(("SSH-2.0-" + SECRET + "\r\n\r\n").getBytes(StandardCharsets.UTF_8));
                  s.getOutputStream().flush();
                  s.shutdownOutput();
                  s.getInputStream().readAllBytes();
                } catch (IOException e) {
                  // the client went away
                }
              });
      t.setDaemon(true);
      t.start();
      ClickHouseClient c =
          new ClickHouseClient(
              new ClickHouseConnection(
                  "banner",
                  URI.create("http://127.0.0.1:" + banner.getLocalPort() + "/"),
                  "default",
                  "",
                  Duration.ofSeconds(5)),
              InetAddress::getAllByName);
      ClickHouseException e =
          assertThrows(ClickHouseException.class, () -> c.query("SELECT 1", null));
      assertEquals(ClickHouseException.Kind.UNREACHABLE, e.kind());
      assertFalse(e.getMessage().contains(SECRET), e.getMessage());
      assertTrue(e.getMessage().contains("cannot reach the server ("), e.getMessage());
    }
  }
}
