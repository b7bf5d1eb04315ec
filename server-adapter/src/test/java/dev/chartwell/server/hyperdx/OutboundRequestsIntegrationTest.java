package dev.chartwell.server.hyperdx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The requests the server makes on a user's behalf to ClickHouse connections and webhooks follow
 * the outbound address policy, as a service token holder would try to abuse them (issue 37's
 * reproductions). Every destination here is a fake on 127.0.0.1 or an address the policy refuses
 * before connecting: nothing ever reaches a host that is not loopback.
 */
class OutboundRequestsIntegrationTest {
  static final String DESCRIBE =
      "Timestamp\tDateTime64(9)\t\t\t\t\t\nServiceName\tString\t\t\t\t\t\nBody\tString\t\t\t\t\t\n";
  static final String SECRET = "SECRET-FROM-THE-REMOTE-BODY";

  /** A fake HTTP server on 127.0.0.1 answering every request alike and recording it. */
  static final class Fake implements AutoCloseable {
    record Seen(String uri, String host, String authorization, String body) {}

    final HttpServer server;
    final List<Seen> seen = new CopyOnWriteArrayList<>();

    Fake(int status, Map<String, String> headers, String body) throws IOException {
      server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
      server.createContext(
          "/",
          x -> {
            seen.add(
                new Seen(
                    x.getRequestURI().toString(),
                    x.getRequestHeaders().getFirst("Host"),
                    x.getRequestHeaders().getFirst("Authorization"),
                    new String(x.getRequestBody().readAllBytes(), StandardCharsets.UTF_8)));
            headers.forEach((k, v) -> x.getResponseHeaders().add(k, v));
            byte[] b = body.getBytes(StandardCharsets.UTF_8);
            x.sendResponseHeaders(status, b.length == 0 ? -1 : b.length);
            if (b.length > 0) {
              x.getResponseBody().write(b);
            }
            x.close();
          });
      server.start();
    }

    String url() {
      return "http://127.0.0.1:" + server.getAddress().getPort() + "/";
    }

    /** The password of each request's Basic authorization. */
    List<String> passwords() {
      return seen.stream()
          .map(
              s -> {
                String userPass =
                    new String(
                        Base64.getDecoder().decode(s.authorization().substring(6)),
                        StandardCharsets.UTF_8);
                return userPass.substring(userPass.indexOf(':') + 1);
              })
          .toList();
    }

    @Override
    public void close() {
      server.stop(0);
    }
  }

  @TempDir Path dir;
  V2Fixture f;
  final List<Fake> fakes = new CopyOnWriteArrayList<>();

  @AfterEach
  void tearDown() throws Exception {
    if (f != null) {
      f.close();
    }
    fakes.forEach(Fake::close);
  }

  Fake fake(int status, Map<String, String> headers, String body) throws IOException {
    Fake k = new Fake(status, headers, body);
    fakes.add(k);
    return k;
  }

  /** Sends a webhook's test message (the route takes JSON only); its {@code result}. */
  JsonNode testWebhook(JsonNode hook) throws Exception {
    java.net.http.HttpResponse<String> r =
        f.http.send(
            "POST",
            f.clickstack("webhooks") + "/" + hook.get("id").asText() + "/test",
            "{}",
            "Authorization",
            V2Fixture.ADMIN,
            "Content-Type",
            "application/json");
    assertEquals(200, r.statusCode(), r.body());
    return V2Fixture.MAPPER.readTree(r.body()).get("result");
  }

  Fake clickHouse() throws IOException {
    return fake(200, Map.of(), DESCRIBE);
  }

  String connection(String host, String password) throws Exception {
    return f.ok("POST", "/api/v2/connections", connectionBody(host, password))
        .get("data")
        .get("id")
        .textValue();
  }

  static String connectionBody(String host, String password) {
    return "{\"name\":\"ch\",\"host\":\""
        + host
        + "\",\"username\":\"default\""
        + (password == null ? "" : ",\"password\":\"" + password + "\"")
        + "}";
  }

  static String source(String connection) {
    return "{\"name\":\"Ext\",\"kind\":\"log\",\"connection\":\""
        + connection
        + "\",\"from\":{\"databaseName\":\"default\",\"tableName\":\"logs\"},"
        + "\"timestampValueExpression\":\"Timestamp\"}";
  }

  /** Reproduction 1: a refused destination is refused in our words and nothing is sent. */
  @Test
  void aServiceTokenCannotMakeTheServerReachARefusedAddress() throws Exception {
    f = new V2Fixture(dir, "--webhook-deny-private"); // restricted although bound to loopback
    Fake ch = clickHouse();
    String id = connection(ch.url(), "pw-1234");
    String e = f.fails(400, "POST", "/api/v2/sources", source(id));
    assertTrue(
        e.contains(
            "127.0.0.1 is a loopback address; the outbound address policy refuses it"
                + " (--allow-outbound can allow it)"),
        e);
    assertEquals(List.of(), ch.seen, "nothing was sent");
    // Refused before connecting: none of these is ever contacted.
    for (String host :
        new String[] {
          "http://10.0.0.1:8123/",
          "http://169.254.169.254/",
          "http://[fd00::1]:8123/",
          "https://192.168.1.1:8443/",
          "http://[::ffff:10.0.0.1]:8123/",
          "http://[64:ff9b::a9fe:a9fe]/",
          "http://[2002:c0a8:101::1]:8123/",
          "http://100.64.0.1:8123/",
          "http://[fe80::1]:8123/",
        }) {
      f.ok("PUT", "/api/v2/connections/" + id, connectionBody(host, "pw-1234"));
      e = f.fails(400, "POST", "/api/v2/sources", source(id));
      assertTrue(e.contains("the outbound address policy refuses it"), host + ": " + e);
    }
    // The webhook test route follows the same policy.
    Fake receiver = fake(200, Map.of(), "");
    JsonNode hook =
        f.cloud(
            "POST",
            f.clickstack("webhooks"),
            "{\"name\":\"w\",\"service\":\"generic\",\"url\":\"" + receiver.url() + "\"}");
    JsonNode test = testWebhook(hook);
    assertFalse(test.get("delivered").asBoolean(), test.toString());
    assertTrue(test.get("error").asText().contains("the outbound address policy"), test.toString());
    assertEquals(List.of(), receiver.seen);
  }

  @Test
  void theDeprecatedFlagSaysSoAtStart() throws Exception {
    java.io.ByteArrayOutputStream log = new java.io.ByteArrayOutputStream();
    try (var server =
        dev.chartwell.server.ChartwellServer.start(
            dev.chartwell.server.ServerConfig.parse(
                new String[] {
                  "--port", "0", "--data-dir", dir.toString(), "--webhook-deny-private"
                },
                Map.of()),
            new java.io.PrintStream(log, true, StandardCharsets.UTF_8))) {
      assertTrue(
          log.toString(StandardCharsets.UTF_8)
              .contains("chartwell: --webhook-deny-private is deprecated"),
          log.toString(StandardCharsets.UTF_8));
    }
  }

  /** --allow-outbound lets a restricted server reach the ranges it lists. */
  @Test
  void allowOutboundListsReachableRanges() throws Exception {
    f = new V2Fixture(dir, "--webhook-deny-private", "--allow-outbound", "127.0.0.1/32");
    Fake ch = clickHouse();
    String id = connection(ch.url(), "pw-1234");
    f.ok("POST", "/api/v2/sources", source(id));
    assertEquals(1, ch.seen.size());
    assertTrue(ch.seen.get(0).body().startsWith("DESCRIBE TABLE"), ch.seen.toString());
    f.ok("PUT", "/api/v2/connections/" + id, connectionBody("http://[fd00::1]:8123/", null));
    String e = f.fails(400, "POST", "/api/v2/sources", source(id));
    assertTrue(e.contains("a private (unique local) address"), e);
  }

  /** Reproduction 2: the text of a failed answer never comes back to the caller. */
  @Test
  void aFailedAnswersBodyIsNeverEchoed() throws Exception {
    f = new V2Fixture(dir); // bound to loopback: every destination allowed
    Fake clickHouseError =
        fake(
            404,
            Map.of("X-ClickHouse-Exception-Code", "60"),
            "Code: 60. DB::Exception: " + SECRET + " (UNKNOWN_TABLE) (version 24.3.1.1)");
    String e =
        f.fails(400, "POST", "/api/v2/sources", source(connection(clickHouseError.url(), null)));
    assertTrue(e.contains("HTTP 404, ClickHouse error code 60 UNKNOWN_TABLE"), e);
    assertFalse(e.contains(SECRET) || e.contains("DB::Exception"), e);

    Fake codeInBody = fake(500, Map.of(), "Code: 516. DB::Exception: " + SECRET);
    e = f.fails(400, "POST", "/api/v2/sources", source(connection(codeInBody.url(), "pw-1234")));
    assertTrue(e.contains("refused user 'default' (HTTP 500, ClickHouse error code 516"), e);
    assertFalse(e.contains(SECRET), e);

    Fake notClickHouse = fake(500, Map.of(), SECRET + "\nroot:x:0:0:root:/root:/bin/bash\n");
    e = f.fails(400, "POST", "/api/v2/sources", source(connection(notClickHouse.url(), null)));
    assertTrue(e.contains("ClickHouse rejected the query (HTTP 500)"), e);
    assertFalse(e.contains(SECRET) || e.contains("root:"), e);

    Fake receiver = fake(500, Map.of(), SECRET);
    JsonNode hook =
        f.cloud(
            "POST",
            f.clickstack("webhooks"),
            "{\"name\":\"w\",\"service\":\"generic\",\"url\":\"" + receiver.url() + "\"}");
    JsonNode test = testWebhook(hook);
    assertEquals("the receiver answered 500", test.get("error").asText(), test.toString());
    assertEquals(1, receiver.seen.size());
  }

  /** Reproduction 3: a password does not follow its connection to another host or port. */
  @Test
  void aConnectionMovedElsewhereDropsItsPassword() throws Exception {
    f = new V2Fixture(dir);
    Fake a = clickHouse();
    Fake b = clickHouse();
    String id = connection(a.url(), "pw-first-1234");
    f.ok("POST", "/api/v2/sources", source(id));
    assertEquals(List.of("pw-first-1234"), a.passwords());
    // the same host and port, no password: the stored one is kept
    f.ok("PUT", "/api/v2/connections/" + id, connectionBody(a.url(), null));
    f.ok("POST", "/api/v2/sources", source(id));
    assertEquals(List.of("pw-first-1234", "pw-first-1234"), a.passwords());
    // only the host changes (another port here): the password stays behind
    f.ok("PUT", "/api/v2/connections/" + id, connectionBody(b.url(), null));
    f.ok("POST", "/api/v2/sources", source(id));
    assertEquals(List.of(""), b.passwords(), "the new host never receives the old password");
    // a move that sets a password uses it
    f.ok("PUT", "/api/v2/connections/" + id, connectionBody(a.url(), "pw-second-1234"));
    f.ok("POST", "/api/v2/sources", source(id));
    assertEquals("pw-second-1234", a.passwords().get(2));
  }

  /** Reproduction 4: redirects are never followed, by ClickHouse connections nor webhooks. */
  @Test
  void redirectsAreNotFollowed() throws Exception {
    f = new V2Fixture(dir);
    Fake target = clickHouse();
    Fake redirecting = fake(302, Map.of("Location", target.url() + "?query=SELECT%201"), "");
    String e =
        f.fails(400, "POST", "/api/v2/sources", source(connection(redirecting.url(), "pw-1234")));
    assertTrue(e.contains("HTTP 302 (a redirect); redirects are not followed"), e);
    assertEquals(1, redirecting.seen.size());
    JsonNode hook =
        f.cloud(
            "POST",
            f.clickstack("webhooks"),
            "{\"name\":\"w\",\"service\":\"generic\",\"url\":\"" + redirecting.url() + "\"}");
    JsonNode test = testWebhook(hook);
    assertFalse(test.get("delivered").asBoolean(), test.toString());
    assertEquals(302, test.get("statusCode").asInt(), test.toString());
    assertEquals(2, redirecting.seen.size());
    assertEquals(List.of(), target.seen, "the redirect's target never hears from us");
  }
}
