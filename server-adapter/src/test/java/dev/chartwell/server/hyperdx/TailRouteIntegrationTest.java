package dev.chartwell.server.hyperdx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.chartwell.server.Await;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code POST /api/v2/tail} over HTTP: events ingested after the tail began arrive as NDJSON lines,
 * the where applies, the rate cap reports what it skipped, a limit ends the stream, a closed
 * connection gives the service's slot back, and bad requests are answered before streaming.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TailRouteIntegrationTest {
  V2Fixture f;
  String logs;
  final HttpClient client = HttpClient.newHttpClient();

  @BeforeAll
  void setUp(@TempDir Path dir) throws Exception {
    f = new V2Fixture(dir);
    ingest("boot", "first line", 1);
    for (JsonNode s : f.ok("GET", "/api/v2/sources", null).get("data")) {
      if (s.get("kind").asText().equals("log")) {
        logs = s.get("id").asText();
      }
    }
  }

  @AfterAll
  void tearDown() throws Exception {
    f.close();
  }

  /** Sends {@code n} log records of a service, timestamped now, by OTLP/HTTP JSON. */
  void ingest(String service, String body, int n) throws Exception {
    long nanos = System.currentTimeMillis() * 1_000_000L;
    List<String> records = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      records.add(
          String.format(
              Locale.ROOT,
              "{\"timeUnixNano\":\"%d\",\"severityText\":\"INFO\",\"body\":{\"stringValue\":"
                  + "\"%s %d\"}}",
              nanos + i,
              body,
              i));
    }
    HttpResponse<String> r =
        f.http.send(
            "POST",
            "/v1/logs",
            "{\"resourceLogs\":[{\"resource\":{\"attributes\":[{\"key\":\"service.name\","
                + "\"value\":{\"stringValue\":\""
                + service
                + "\"}}]},\"scopeLogs\":[{\"logRecords\":["
                + String.join(",", records)
                + "]}]}]}",
            "Authorization",
            "Bearer " + f.token,
            "Content-Type",
            "application/json");
    assertEquals(200, r.statusCode(), r.body());
  }

  /** An open tail: its lines as they arrive, read by the client's own thread. */
  final class Tail implements AutoCloseable {
    final HttpResponse<Stream<String>> response;
    final BlockingQueue<JsonNode> lines = new LinkedBlockingQueue<>();
    final Thread reader;
    volatile boolean ended;

    Tail(String body) throws Exception {
      response =
          client.send(
              HttpRequest.newBuilder(
                      URI.create("http://127.0.0.1:" + f.http.port() + "/api/v2/tail"))
                  .header("Authorization", "Bearer " + f.token)
                  .header("Content-Type", "application/json")
                  .POST(HttpRequest.BodyPublishers.ofString(body))
                  .build(),
              HttpResponse.BodyHandlers.ofLines());
      reader =
          new Thread(
              () -> {
                try {
                  response
                      .body()
                      .forEach(
                          l -> {
                            try {
                              lines.add(V2Fixture.MAPPER.readTree(l));
                            } catch (Exception e) {
                              throw new AssertionError("not a JSON line: " + l, e);
                            }
                          });
                } catch (RuntimeException e) {
                  // the connection closed under the reader: the test closed it
                } finally {
                  ended = true;
                }
              },
              "tail-reader");
      reader.setDaemon(true);
      reader.start();
    }

    /** The next line of a type, skipping heartbeats; fails when the stream ends first. */
    JsonNode next(String type) throws Exception {
      long deadline = System.nanoTime() + Await.HUNG.toNanos();
      while (System.nanoTime() < deadline) {
        JsonNode l = lines.poll(50, TimeUnit.MILLISECONDS);
        if (l == null) {
          if (ended && lines.isEmpty()) {
            throw new AssertionError("the stream ended before a " + type + " line");
          }
          continue;
        }
        if (l.get("type").asText().equals("heartbeat")) {
          continue;
        }
        assertEquals(type, l.get("type").asText(), l.toString());
        return l;
      }
      throw new AssertionError("no " + type + " line after " + Await.HUNG.toSeconds() + " s");
    }

    @Override
    public void close() {
      response.body().close();
    }
  }

  String tailBody(String more) {
    return "{\"sourceId\":\"" + logs + "\"" + more + "}";
  }

  @Test
  void streamsNewEventsMatchingTheWhere() throws Exception {
    try (Tail t = new Tail(tailBody(",\"where\":\"ServiceName:api\""))) {
      assertEquals(200, t.response.statusCode());
      assertEquals(
          "application/x-ndjson", t.response.headers().firstValue("Content-Type").orElse(""));
      JsonNode start = t.next("start");
      assertEquals(logs, start.get("sourceId").asText());
      ingest("db", "not this", 1);
      ingest("api", "this one", 1);
      JsonNode e = t.next("event");
      assertEquals("api", e.get("data").get("ServiceName").asText(), e.toString());
      assertEquals("this one 0", e.get("data").get("Body").asText(), e.toString());
      ingest("api", "and this", 2);
      assertEquals("and this 0", t.next("event").get("data").get("Body").asText());
      assertEquals("and this 1", t.next("event").get("data").get("Body").asText());
    }
  }

  @Test
  void theRateCapSendsWhatItMayAndCountsTheRest() throws Exception {
    try (Tail t =
        new Tail(tailBody(",\"where\":\"ServiceName:burst\",\"maxPerSecond\":2,\"limit\":3"))) {
      t.next("start");
      ingest("burst", "flood", 50);
      long events = 0;
      long skipped = 0;
      while (events + skipped < 50) {
        JsonNode l = t.next(events < 2 ? "event" : "skipped");
        if (l.get("type").asText().equals("event")) {
          events++;
        } else {
          skipped += l.get("count").asLong();
          assertEquals(2, l.get("maxPerSecond").asInt());
        }
      }
      // The first round sends the 2 newest of the 50 and counts the 48 others as skipped.
      assertEquals(2, events);
      assertEquals(48, skipped);
      ingest("burst", "after", 1);
      assertEquals("after 0", t.next("event").get("data").get("Body").asText());
      JsonNode end = t.next("end");
      assertEquals("limit reached", end.get("reason").asText());
      assertEquals(3, end.get("sent").asInt());
      Await.until("the stream closed by the server", () -> t.ended);
    }
  }

  @Test
  void aClosedConnectionGivesTheSlotBack() throws Exception {
    List<Tail> tails = new ArrayList<>();
    try {
      for (int i = 0; i < TailHub.MAX_PER_SERVICE; i++) {
        Tail t = new Tail(tailBody(""));
        tails.add(t);
        t.next("start");
      }
      HttpResponse<String> refused = f.v2("POST", "/api/v2/tail", tailBody(""));
      assertEquals(429, refused.statusCode(), refused.body());
      assertTrue(refused.body().contains("live tails open"), refused.body());
      tails.remove(0).close();
      Await.until(
          "a tail slot free again",
          () -> {
            Tail again = new Tail(tailBody(""));
            tails.add(again);
            if (again.response.statusCode() == 200) {
              return true;
            }
            assertEquals(429, again.response.statusCode());
            return false;
          });
    } finally {
      tails.forEach(Tail::close);
    }
  }

  @Test
  void aStoppingServerEndsItsTailsAndLeavesNoThread(@TempDir Path other) throws Exception {
    V2Fixture own = new V2Fixture(other);
    V2Fixture shared = f;
    f = own;
    try {
      ingest("boot", "first", 1);
      String source = null;
      for (JsonNode s : own.ok("GET", "/api/v2/sources", null).get("data")) {
        source = s.get("id").asText();
      }
      try (Tail t = new Tail("{\"sourceId\":\"" + source + "\"}")) {
        t.next("start");
        own.close();
        JsonNode end = t.next("end");
        assertEquals("server stopping", end.get("reason").asText());
        Await.until("the stream closed", () -> t.ended);
      }
      Await.until(
          "no tail thread left",
          () ->
              Thread.getAllStackTraces().keySet().stream()
                  .noneMatch(th -> th.getName().startsWith("chartwell-tail-")));
    } finally {
      f = shared;
    }
  }

  @Test
  void badRequestsAreAnsweredBeforeTheStream() throws Exception {
    HttpResponse<String> anonymous =
        f.http.send("POST", "/api/v2/tail", tailBody(""), "Content-Type", "application/json");
    assertEquals(401, anonymous.statusCode(), anonymous.body());
    assertTrue(f.fails(400, "POST", "/api/v2/tail", "{}").contains("sourceId: is required"));
    assertTrue(
        f.fails(400, "POST", "/api/v2/tail", tailBody(",\"maxPerSecond\":0"))
            .contains("maxPerSecond: must be an integer from 1 to 1000"));
    assertTrue(
        f.fails(400, "POST", "/api/v2/tail", tailBody(",\"follow\":true"))
            .contains("follow: unknown field"));
    assertTrue(f.fails(400, "POST", "/api/v2/tail", tailBody(",\"where\":\"a:(b\"")).length() > 0);
    assertTrue(
        f.fails(400, "POST", "/api/v2/tail", tailBody(",\"select\":\"NoSuchColumn\""))
            .contains("no column 'NoSuchColumn'"));
    f.fails(404, "POST", "/api/v2/tail", "{\"sourceId\":\"nosuchsource\"}");
  }
}
