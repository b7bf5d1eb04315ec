package dev.chartwell.server.alerts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A process killed (SIGKILL) after sending a notification and before recording that it was
 * received: the next process sends it again, with the same idempotency key and body, records it
 * delivered, and keeps nothing pending.
 */
class OutboxCrashTest {
  static final ObjectMapper MAPPER = new ObjectMapper();

  @TempDir Path dir;

  static Notification notification() {
    return new Notification(
        "4f1c0de5a1b2c3d4e5f60718293a4b5c",
        "alert-1",
        "svc-1",
        "hook-1",
        "ALERT",
        "🚨 Errors",
        "12 meets or exceeds 5",
        "",
        1_772_445_600_000L,
        1_772_445_660_000L,
        "event-1",
        12,
        "5",
        "",
        1_772_445_661_000L);
  }

  @Test
  void aCrashBetweenSendAndRecordResendsWithTheSameKey() throws Exception {
    try (Receiver receiver = new Receiver()) {
      Process[] child = new Process[1];
      receiver.onRequest(
          () -> {
            if (receiver.received().size() == 1) {
              child[0].destroyForcibly(); // before the answer: the child never learns of it
              try {
                child[0].waitFor(30, TimeUnit.SECONDS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            }
          });
      child[0] =
          new ProcessBuilder(
                  Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                  "-Xmx128m",
                  "-XX:TieredStopAtLevel=1",
                  "-cp",
                  System.getProperty("java.class.path"),
                  OutboxCrashChild.class.getName(),
                  dir.toString(),
                  receiver.url())
              .redirectError(ProcessBuilder.Redirect.INHERIT)
              .start();
      List<String> lines = new ArrayList<>();
      try (BufferedReader out =
          new BufferedReader(
              new InputStreamReader(child[0].getInputStream(), StandardCharsets.UTF_8))) {
        for (String line; (line = out.readLine()) != null; ) {
          lines.add(line);
        }
      }
      assertTrue(child[0].waitFor(60, TimeUnit.SECONDS));
      assertEquals(List.of("ready"), lines, "killed while waiting for the answer");
      assertEquals(1, receiver.received().size());

      ObjectMapper mapper = new ObjectMapper();
      try (Outbox outbox = Outbox.open(dir.resolve("outbox.log"), mapper, m -> {});
          HistoryStore history = new HistoryStore(dir.resolve("history"), mapper, m -> {})) {
        assertEquals(1, outbox.pendingCount(), "what was in flight is pending again");
        outbox.enqueue(List.of(notification()), true);
        assertEquals(1, outbox.pendingCount(), "decided again: still one");
        try (Delivery d =
            OutboxCrashChild.delivery(outbox, history, mapper, receiver.url(), Clock.systemUTC())) {
          assertEquals(1, d.runDue());
        }
        assertEquals(0, outbox.pendingCount());
        JsonNode[] outcome = new JsonNode[1];
        history.backwards(
            "alert-1",
            r -> {
              outcome[0] = r;
              return false;
            });
        assertEquals("delivered", outcome[0].get("status").asText());
      }
      List<Receiver.Received> got = receiver.received();
      assertEquals(2, got.size());
      assertEquals(got.get(0).body(), got.get(1).body());
      assertEquals("4f1c0de5a1b2c3d4e5f60718293a4b5c", got.get(0).headers().get("idempotency-key"));
      assertEquals(
          got.get(0).headers().get("idempotency-key"), got.get(1).headers().get("idempotency-key"));
    }
  }
}
