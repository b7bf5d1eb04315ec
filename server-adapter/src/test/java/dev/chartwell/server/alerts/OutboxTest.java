package dev.chartwell.server.alerts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The outbox keeps what is pending across restarts, never queues one notification twice. */
class OutboxTest {
  static final ObjectMapper MAPPER = new ObjectMapper();
  @TempDir Path dir;
  final List<String> reports = new ArrayList<>();

  static Notification note(String id, long at) {
    return note(id, "a-" + id, at);
  }

  static Notification note(String id, String alertId, long at) {
    return new Notification(
        id, alertId, "s1", "w1", "ALERT", "t", "b", "", at - 60_000, at, "e", 7, "5", "", at);
  }

  Outbox open() throws Exception {
    return Outbox.open(dir.resolve("outbox.log"), MAPPER, reports::add);
  }

  @Test
  void pendingNotificationsAndTheirRetriesSurviveARestart() throws Exception {
    try (Outbox o = open()) {
      o.enqueue(List.of(note("n1", 1000), note("n2", 1000), note("n3", 1000)), true);
      assertEquals(3, o.takeDue(1000, 10).size());
      assertEquals(List.of(), o.takeDue(1000, 10), "in flight: not taken twice");
      o.retryAt("n1", 1, 5000);
      o.finish("n2", 1500);
    }
    try (Outbox o = open()) {
      assertEquals(2, o.pendingCount(), "n3 was in flight when the process went: it is resent");
      List<Outbox.Pending> due = o.takeDue(1500, 10);
      assertEquals(List.of("n3"), due.stream().map(p -> p.notification().id()).toList());
      assertEquals(note("n3", 1000), due.get(0).notification());
      assertEquals(5000, o.nextDue());
      Outbox.Pending n1 = o.takeDue(5000, 10).get(0);
      assertEquals(1, n1.attempts());
      o.enqueue(List.of(note("n2", 1000), note("n1", 1000)), true);
      assertEquals(2, o.pendingCount(), "decided again after a crash: not queued twice");
    }
    assertEquals(List.of(), reports);
  }

  @Test
  void oneAlertsNotificationsToOneWebhookGoOneAtATimeInOrder() throws Exception {
    try (Outbox o = open()) {
      o.enqueue(
          List.of(note("alert", "a1", 1000), note("ok", "a1", 1000), note("x", "a2", 1000)), true);
      assertEquals(
          List.of("alert", "x"),
          o.takeDue(1000, 10).stream().map(p -> p.notification().id()).toList());
      o.retryAt("alert", 1, 9000);
      assertEquals(List.of(), o.takeDue(5000, 10), "the resolve waits behind its alert's retry");
      assertEquals(9000, o.nextDue());
      assertEquals("alert", o.takeDue(9000, 10).get(0).notification().id());
      o.finish("alert", 9000);
      assertEquals("ok", o.takeDue(9000, 10).get(0).notification().id());
    }
  }

  @Test
  void theFileIsRewrittenWhenMostOfItIsDone() throws Exception {
    try (Outbox o = open()) {
      for (int i = 0; i < 2000; i++) {
        o.enqueue(List.of(note("n" + i, 1000)), false);
        o.takeDue(1000, 1);
        o.finish("n" + i, 1000 + i);
      }
      o.enqueue(List.of(note("last", 1000)), true);
    }
    assertTrue(Files.size(dir.resolve("outbox.log")) < 200_000, "rewritten");
    try (Outbox o = open()) {
      assertEquals(1, o.pendingCount());
      assertEquals(Set.of(), o.enqueue(List.of(note("n1999", 1000)), true));
      assertEquals(1, o.pendingCount(), "done within the last day is still remembered");
    }
  }
}
