package dev.chartwell.server.alerts;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The notifications decided but not yet delivered or given up, durable in one {@link RecordFile}
 * ({@code outbox.log}) of JSON records: {@code queued} (a {@link Notification}), {@code attempt} (a
 * failed attempt, with when to try again) and {@code done} (delivered or given up). Queued records
 * are forced to the disk before the history that mentions them is written, so that no notification
 * decided is lost; a restart replays the file and resumes what was pending. The ids of
 * notifications done within the last day are remembered, so that a notification decided again (its
 * window evaluated again after a crash) is not sent twice. The file is rewritten with only what is
 * live once it is mostly notifications done.
 */
final class Outbox implements AutoCloseable {
  /** The most notifications kept waiting; more are refused (and the history says so). */
  static final int MAX_PENDING = 10_000;

  private static final long REMEMBER_DONE_MILLIS = 86_400_000L;
  private static final int MAX_DONE = 100_000;

  /**
   * A notification waiting for its next attempt.
   *
   * @param notification what to send
   * @param attempts attempts made so far
   * @param next when the next attempt is due, epoch ms
   */
  record Pending(Notification notification, int attempts, long next) {}

  private final Path file;
  private final ObjectMapper mapper;
  private final Consumer<String> report;
  private final Map<String, Pending> pending = new LinkedHashMap<>();
  private final Set<String> inFlight = new HashSet<>();
  private final LinkedHashMap<String, Long> done = new LinkedHashMap<>();
  private RecordFile log;
  private long dead;

  private Outbox(Path file, ObjectMapper mapper, Consumer<String> report) {
    this.file = file;
    this.mapper = mapper;
    this.report = report;
  }

  /**
   * Opens the outbox and replays it.
   *
   * @param file the file
   * @param mapper JSON codec
   * @param report told about repairs
   * @return the outbox, holding what was pending
   * @throws IOException when the file cannot be read or written
   */
  static Outbox open(Path file, ObjectMapper mapper, Consumer<String> report) throws IOException {
    Outbox o = new Outbox(file, mapper, report);
    o.log = RecordFile.open(file, true, report);
    o.log.forEach(p -> o.replay(o.read(p)));
    o.compactIfLarge();
    return o;
  }

  private void replay(ObjectNode r) {
    String id = r.path("id").asText();
    switch (r.path("type").asText()) {
      case "queued" -> {
        if (!done.containsKey(id)) {
          pending.put(
              id,
              new Pending(
                  mapper.convertValue(r.get("notification"), Notification.class),
                  r.path("attempts").asInt(0),
                  r.path("next").asLong(0)));
        }
      }
      case "attempt" -> {
        Pending p = pending.get(id);
        if (p != null) {
          pending.put(
              id, new Pending(p.notification(), r.get("attempts").asInt(), r.get("next").asLong()));
        }
      }
      case "done" -> {
        if (pending.remove(id) != null) {
          dead++;
        }
        done.put(id, r.path("at").asLong());
      }
      default -> report.accept(file + ": skipped a record of unknown type " + r.path("type"));
    }
  }

  /**
   * Queues notifications, forced to the disk before this returns (unless {@code force} is false).
   * One already pending or done within the last day is skipped: it was decided before.
   *
   * @param notifications what to send
   * @param force whether to force the records to the disk
   * @return the ids refused because the outbox is full
   */
  synchronized Set<String> enqueue(List<Notification> notifications, boolean force) {
    Set<String> refused = new HashSet<>();
    List<byte[]> out = new ArrayList<>();
    List<Notification> accepted = new ArrayList<>();
    for (Notification n : notifications) {
      if (pending.containsKey(n.id()) || done.containsKey(n.id())) {
        continue;
      }
      if (pending.size() + accepted.size() >= MAX_PENDING) {
        refused.add(n.id());
        continue;
      }
      ObjectNode r = mapper.createObjectNode();
      r.put("type", "queued").put("id", n.id()).put("attempts", 0).put("next", n.createdAt());
      r.set("notification", mapper.valueToTree(n));
      out.add(bytes(r));
      accepted.add(n);
    }
    write(out, force);
    for (Notification n : accepted) {
      pending.put(n.id(), new Pending(n, 0, n.createdAt()));
    }
    return refused;
  }

  /**
   * Takes the notifications due for an attempt; they are not taken again until their outcome is
   * recorded. The notifications of one alert to one webhook go in the order they were decided, one
   * at a time: a resolve never overtakes its alert, even while that one waits for a retry.
   *
   * @param now the time, epoch ms
   * @param max the most to take
   * @return the due notifications, oldest first
   */
  synchronized List<Pending> takeDue(long now, int max) {
    List<Pending> due = new ArrayList<>();
    Set<String> queues = new HashSet<>();
    for (Pending p : pending.values()) {
      if (due.size() >= max) {
        break;
      }
      Notification n = p.notification();
      boolean first = queues.add(n.alertId() + "/" + n.webhookId());
      if (first && p.next() <= now && inFlight.add(n.id())) {
        due.add(p);
      }
    }
    return due;
  }

  /**
   * Records a failed attempt to be retried.
   *
   * @param id the notification
   * @param attempts attempts made so far
   * @param next when to try again, epoch ms
   */
  synchronized void retryAt(String id, int attempts, long next) {
    ObjectNode r = mapper.createObjectNode();
    r.put("type", "attempt").put("id", id).put("attempts", attempts).put("next", next);
    write(List.of(bytes(r)), false);
    Pending p = pending.get(id);
    if (p != null) {
      pending.put(id, new Pending(p.notification(), attempts, next));
    }
    inFlight.remove(id);
  }

  /**
   * Records that a notification was delivered or given up.
   *
   * @param id the notification
   * @param now the time, epoch ms
   */
  synchronized void finish(String id, long now) {
    ObjectNode r = mapper.createObjectNode();
    r.put("type", "done").put("id", id).put("at", now);
    write(List.of(bytes(r)), false);
    pending.remove(id);
    inFlight.remove(id);
    done.put(id, now);
    dead++;
    forgetOldDone(now);
    compactIfLarge();
  }

  /**
   * @return how many notifications wait
   */
  synchronized int pendingCount() {
    return pending.size();
  }

  /**
   * @return when the earliest waiting notification is due, or {@code Long.MAX_VALUE}
   */
  synchronized long nextDue() {
    long next = Long.MAX_VALUE;
    Set<String> queues = new HashSet<>();
    for (Pending p : pending.values()) {
      Notification n = p.notification();
      if (queues.add(n.alertId() + "/" + n.webhookId()) && !inFlight.contains(n.id())) {
        next = Math.min(next, p.next());
      }
    }
    return next;
  }

  private void forgetOldDone(long now) {
    Iterator<Map.Entry<String, Long>> it = done.entrySet().iterator();
    while (it.hasNext()) {
      Map.Entry<String, Long> e = it.next();
      if (done.size() > MAX_DONE || e.getValue() < now - REMEMBER_DONE_MILLIS) {
        it.remove();
      } else {
        break;
      }
    }
  }

  private void write(List<byte[]> out, boolean force) {
    if (out.isEmpty()) {
      return;
    }
    try {
      log.append(out, force);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the alert outbox " + file, e);
    }
  }

  /**
   * Rewrites the file with only what is live (the pending notifications and the ids of those done
   * within the last day) once it holds at least 1,000 notifications done, and more than pending.
   */
  private void compactIfLarge() {
    if (dead < 1_000 || dead < pending.size()) {
      return;
    }
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    try {
      Files.deleteIfExists(tmp);
      List<byte[]> out = new ArrayList<>();
      for (Map.Entry<String, Long> d : done.entrySet()) {
        ObjectNode r = mapper.createObjectNode();
        out.add(bytes(r.put("type", "done").put("id", d.getKey()).put("at", d.getValue())));
      }
      for (Pending p : pending.values()) {
        ObjectNode r = mapper.createObjectNode();
        r.put("type", "queued").put("id", p.notification().id());
        r.put("attempts", p.attempts()).put("next", p.next());
        r.set("notification", mapper.valueToTree(p.notification()));
        out.add(bytes(r));
      }
      try (RecordFile t = RecordFile.open(tmp, false, report)) {
        t.append(out, true);
      }
      log.close();
      try {
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        try (FileChannel d = FileChannel.open(file.getParent(), StandardOpenOption.READ)) {
          d.force(true);
        }
      } finally {
        log = RecordFile.open(file, false, report); // the new file, or the old one if not moved
      }
      dead = 0;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot rewrite the alert outbox " + file, e);
    }
  }

  private byte[] bytes(ObjectNode n) {
    try {
      return mapper.writeValueAsBytes(n);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private ObjectNode read(byte[] p) {
    try {
      return (ObjectNode) mapper.readTree(p);
    } catch (IOException e) {
      throw new UncheckedIOException("unreadable alert outbox record in " + file, e);
    }
  }

  @Override
  public synchronized void close() throws IOException {
    log.close();
  }
}
