package dev.chartwell.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.chartwell.engine.internal.storage.OwnerOnly;
import dev.chartwell.server.http.HttpTestClient;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A user's own events charted in three commands: {@code --quickstart} makes the service {@code
 * default} and says how to send to it, {@code ingest FILE} sends a file through the server's
 * ingestion route (in several requests when large, reporting refused lines by their number in the
 * file), and the events are there to chart.
 */
class QuickStartIntegrationTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final long T = 1_795_000_000_000L;

  @TempDir Path dir;

  @Test
  void ownEventsInThreeCommands() throws Exception {
    Path data = dir.resolve("data");
    Path file = dir.resolve("events.ndjson");
    int lines = 60_000; // about 5.6 MB: two requests
    StringBuilder b = new StringBuilder();
    for (int i = 1; i <= lines; i++) {
      b.append(
          i == 7
              ? "{\"Timestamp\": not json}\n"
              : "{\"Timestamp\":" + (T + i) + ",\"Body\":\"event " + i + " of the user's own\"}\n");
    }
    Files.writeString(file, b.toString().stripTrailing()); // no newline after the last line
    String token;
    try (ChartwellServer server = TestServers.start(data, "--quickstart")) {
      List<String> banner = server.banner();
      String tokenLine = line(banner, "quickstart token (Bearer; kept in ");
      token = tokenLine.substring(tokenLine.lastIndexOf(' ') + 1);
      assertTrue(line(banner, "send NDJSON: ").contains("ingest events.ndjson --data-dir " + data));
      assertTrue(line(banner, "  or: curl ").contains("Bearer " + token));
      assertTrue(line(banner, "send OTLP: ").endsWith("Bearer%20" + token));
      assertTrue(line(banner, "explore: http://127.0.0.1:").contains("/explore/"));
      assertTrue(!OwnerOnly.isOpenToOthers(data.resolve(QuickStart.FILE)));

      ByteArrayOutputStream out = new ByteArrayOutputStream();
      ByteArrayOutputStream err = new ByteArrayOutputStream();
      int code =
          IngestCommand.run(
              new String[] {file.toString(), "--data-dir", data.toString()},
              new PrintStream(out, true, StandardCharsets.UTF_8),
              new PrintStream(err, true, StandardCharsets.UTF_8));
      String report = out.toString(StandardCharsets.UTF_8);
      assertEquals(1, code, "a refused line makes the exit status 1: " + report + err);
      assertTrue(report.contains("sent 60,000 lines of " + file), report);
      assertTrue(report.contains("59,999 events accepted, 1 lines refused"), report);
      assertTrue(err.toString(StandardCharsets.UTF_8).startsWith("line 7: "), err.toString());

      QuickStart.Access access = QuickStart.read(data, MAPPER).orElseThrow();
      HttpTestClient http = new HttpTestClient(server.port());
      String chart =
          "{\"startTime\":"
              + T
              + ",\"endTime\":"
              + (T + 3_600_000)
              + ",\"granularity\":\"1h\",\"series\":[{\"sourceId\":\""
              + access.sourceId()
              + "\",\"aggFn\":\"count\"}]}";
      var r =
          http.send(
              "POST",
              "/api/v2/charts/series",
              chart,
              "Authorization",
              "Bearer " + token,
              "Content-Type",
              "application/json");
      assertEquals(200, r.statusCode(), r.body());
      JsonNode row = MAPPER.readTree(r.body()).get("data").get(0);
      assertEquals(59_999, row.get("series_0.data").asLong(), r.body());
    }
    // Progress lines of later starts name tables as users know them, not by id alone.
    java.util.Map<String, String> names =
        dev.chartwell.server.catalog.TableNames.read(data, MAPPER);
    String id = names.keySet().iterator().next();
    assertEquals(
        "source " + id + " (table " + names.get(id) + "): 1 segment files",
        dev.chartwell.server.catalog.TableNames.addTo("source " + id + ": 1 segment files", names));
    assertTrue(names.get(id).startsWith("default."), names.toString());
    // A later start keeps the token that works, and the file with it.
    try (ChartwellServer server = TestServers.start(data, "--quickstart")) {
      assertTrue(line(server.banner(), "quickstart token").endsWith(": " + token));
    }
  }

  @Test
  void ingestWithoutAQuickstartSaysWhatToDo() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code =
        IngestCommand.run(
            new String[] {"x.ndjson", "--data-dir", dir.toString()},
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    assertEquals(Main.EXIT_USAGE, code);
    assertTrue(
        err.toString(StandardCharsets.UTF_8)
            .contains("quickstart.json does not exist: start the server with --quickstart"),
        err.toString());
  }

  private static String line(List<String> banner, String start) {
    return banner.stream()
        .filter(l -> l.startsWith(start))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no line '" + start + "' in " + banner));
  }
}
