package dev.chartwell.server.shippers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import dev.chartwell.server.shippers.logproto.Push;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.xerial.snappy.Snappy;

/**
 * Replays the requests each shipper makes (test resources {@code shippers/*.http}, see their
 * README) against a real server, each into a service of its own, and checks every answer and what
 * was stored.
 */
class ShipperReplayIntegrationTest {
  static final String[] FILES = {
    "filebeat.http",
    "logstash.http",
    "fluent-bit-es.http",
    "vector-es.http",
    "otel-collector-es.http",
    "fluent-bit-loki.http",
    "promtail.http",
    "vector-loki.http"
  };

  private static Path dir;
  private static ShipperServer server;

  @BeforeAll
  static void start() throws Exception {
    dir = Files.createTempDirectory("chartwell-shippers-");
    server = new ShipperServer(dir);
  }

  @AfterAll
  static void stop() throws Exception {
    if (server != null) {
      server.close();
    }
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  static Stream<String> files() {
    return Stream.of(FILES);
  }

  /** One request of a file, with the status expected. */
  record Step(String method, String path, String contentType, String body, int status) {}

  @ParameterizedTest
  @MethodSource("files")
  void replays(String file) throws Exception {
    String text = read(file);
    try (ShipperServer s = server.anotherService()) {
      List<String> checks = new ArrayList<>();
      for (Step step : parse(text, checks)) {
        boolean lokiPath = step.path.startsWith("/loki/") || step.path.equals("/ready");
        String path =
            lokiPath ? step.path : "/elasticsearch" + (step.path.equals("/") ? "" : step.path);
        byte[] body = step.body.isEmpty() ? null : step.body.getBytes(StandardCharsets.UTF_8);
        if ("application/x-protobuf".equals(step.contentType)) {
          body = Snappy.compress(protobuf(step.body));
        }
        List<String> headers = new ArrayList<>(List.of("Authorization", s.basic()));
        if (step.contentType != null) {
          headers.add("Content-Type");
          headers.add(step.contentType);
        }
        HttpResponse<byte[]> r = s.send(step.method, path, body, headers.toArray(String[]::new));
        String answer = new String(r.body(), StandardCharsets.UTF_8);
        assertEquals(
            step.status,
            r.statusCode(),
            file + ": " + step.method + " " + step.path + ": " + answer);
        if (step.path.contains("_bulk")) {
          assertFalse(ShipperServer.MAPPER.readTree(answer).get("errors").booleanValue(), answer);
        }
      }
      for (String check : checks) {
        String[] parts = check.split(" ", 3);
        assertEquals(
            Long.parseLong(parts[1]),
            s.count(parts[0], parts.length > 2 ? parts[2] : null),
            file + ": = " + check);
      }
    }
  }

  private static String read(String file) throws IOException {
    try (InputStream in =
        ShipperReplayIntegrationTest.class.getResourceAsStream("/shippers/" + file)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private static List<Step> parse(String text, List<String> checks) {
    List<Step> steps = new ArrayList<>();
    String[] request = null;
    StringBuilder body = new StringBuilder();
    for (String line : text.split("\n")) {
      if (line.startsWith("#") || (line.isBlank() && request == null)) {
        continue;
      }
      if (line.startsWith("> ")) {
        request = line.substring(2).split(" ");
        body.setLength(0);
      } else if (line.startsWith("< ")) {
        steps.add(
            new Step(
                request[0],
                request[1],
                request.length > 2 ? request[2] : null,
                body.toString(),
                Integer.parseInt(line.substring(2).strip())));
        request = null;
      } else if (line.startsWith("= ")) {
        checks.add(line.substring(2).strip());
      } else {
        body.append(line).append('\n');
      }
    }
    return steps;
  }

  /** The PushRequest a JSON description names. */
  private static byte[] protobuf(String json) throws IOException {
    Push.PushRequest.Builder req = Push.PushRequest.newBuilder();
    for (JsonNode st : ShipperServer.MAPPER.readTree(json).get("streams")) {
      Push.Stream.Builder stream = req.addStreamsBuilder().setLabels(st.get("labels").textValue());
      for (JsonNode e : st.get("entries")) {
        long ts = e.get("ts").longValue();
        Push.Entry.Builder entry =
            stream
                .addEntriesBuilder()
                .setTimestamp(
                    Push.Timestamp.newBuilder()
                        .setSeconds(ts / 1_000_000_000L)
                        .setNanos((int) (ts % 1_000_000_000L)))
                .setLine(e.get("line").textValue());
        e.path("metadata")
            .fields()
            .forEachRemaining(
                m ->
                    entry.addStructuredMetadata(
                        Push.LabelPair.newBuilder()
                            .setName(m.getKey())
                            .setValue(m.getValue().textValue())));
      }
    }
    return req.build().toByteArray();
  }
}
