package dev.chartwell.server.alerts;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.chartwell.clickhouse.ClickHouseException;
import dev.chartwell.engine.Engine;
import dev.chartwell.engine.InvalidQueryException;
import dev.chartwell.engine.QueryAbortedException;
import dev.chartwell.engine.UnknownSourceException;
import dev.chartwell.engine.internal.query.Backend;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Evaluates alerts' due windows: one query per window, each instance stepped through it ({@link
 * Transition}), the notifications called for queued in the {@link Outbox} (forced to the disk) and
 * then the window's record written to the {@link HistoryStore}. What it knows of each alert (the
 * last window evaluated and its instances) is that last record, read back lazily after a restart,
 * so missed windows are backfilled from it.
 *
 * <p>Instances: an alert without groups has one ({@code ""}); a grouped alert has one per group
 * with rows in the window, plus each group known from the previous window (it had rows, or it is
 * not OK) that has none now, which counts as 0. At most {@link #MAX_INSTANCES} per window are
 * evaluated: those not OK, then those breaking the threshold, then the largest values.
 *
 * <p>The server's {@link Alerts} runs one over the alerts it resolves each minute; a benchmark or
 * an embedding program can {@link #open} one over an engine and give it {@link AlertSpec}s itself.
 */
public final class Evaluator implements AutoCloseable {
  /** The most instances one window of one alert evaluates. */
  static final int MAX_INSTANCES = 100;

  /**
   * What is known of an alert after its last evaluation.
   *
   * @param lastEnd the end of the last window evaluated, or {@code Long.MIN_VALUE}
   * @param instances its instances by group
   * @param errors what kept its last evaluation from running (QUERY_ERROR, INVALID_ALERT), or
   *     warned about it, as {@code {timestamp, type, message}}
   */
  record Progress(long lastEnd, Map<String, Instance> instances, List<ObjectNode> errors) {
    /**
     * @return ALERT when an instance is, else PENDING when one is, else OK
     */
    String state() {
      boolean pending = false;
      for (Instance i : instances.values()) {
        if (i.state().equals(Instance.ALERT)) {
          return Instance.ALERT;
        }
        pending |= i.state().equals(Instance.PENDING);
      }
      return pending ? Instance.PENDING : Instance.OK;
    }
  }

  private final Engine engine;
  private final HistoryStore history;
  private final Outbox outbox;
  private final ObjectMapper mapper;
  private final String frontendUrl;
  private final Duration queryTimeout;
  private final Map<String, Progress> progress = new ConcurrentHashMap<>();

  private Evaluator(
      Engine engine,
      HistoryStore history,
      Outbox outbox,
      ObjectMapper mapper,
      String frontendUrl,
      Duration queryTimeout) {
    this.engine = engine;
    this.history = history;
    this.outbox = outbox;
    this.mapper = mapper;
    this.frontendUrl = frontendUrl;
    this.queryTimeout = queryTimeout;
  }

  /**
   * Opens the history and the outbox under a directory.
   *
   * @param dir the alerts' directory ({@code <data-dir>/alerts} in the server)
   * @param engine the engine queries run on
   * @param mapper JSON codec
   * @param frontendUrl the UI notifications link to, or {@code null}
   * @param queryTimeout how long one window's query may run
   * @param report told about repairs, one line each
   * @return the evaluator
   * @throws IOException when the outbox cannot be read or written
   */
  public static Evaluator open(
      Path dir,
      Engine engine,
      ObjectMapper mapper,
      String frontendUrl,
      Duration queryTimeout,
      Consumer<String> report)
      throws IOException {
    Outbox outbox = Outbox.open(dir.resolve("outbox.log"), mapper, report);
    return new Evaluator(
        engine,
        new HistoryStore(dir.resolve("history"), mapper, report),
        outbox,
        mapper,
        frontendUrl,
        queryTimeout);
  }

  /**
   * @return where the evaluations are written
   */
  HistoryStore history() {
    return history;
  }

  /**
   * @return where the notifications wait
   */
  Outbox outbox() {
    return outbox;
  }

  /**
   * @param alertId an alert
   * @return what is known of it (read from its history the first time)
   */
  Progress progress(String alertId) {
    return progress.computeIfAbsent(alertId, this::load);
  }

  /**
   * @param alertId an alert
   * @return its state after its latest window: {@code ALERT}, {@code PENDING} or {@code OK}
   */
  public String state(String alertId) {
    return progress(alertId).state();
  }

  /**
   * Records why an alert was not evaluated.
   *
   * @param alertId the alert
   * @param type {@code INVALID_ALERT} or {@code QUERY_ERROR}
   * @param message the reason
   * @param now the time, epoch ms
   */
  void unresolved(String alertId, String type, String message, long now) {
    Progress p = progress(alertId);
    progress.put(
        alertId, new Progress(p.lastEnd(), p.instances(), List.of(error(type, message, now))));
  }

  /**
   * @param alive the alerts that exist
   */
  void forgetAllBut(Set<String> alive) {
    progress.keySet().retainAll(alive);
  }

  /**
   * @param spec an alert
   * @param now the time, epoch ms
   * @return the windows due
   */
  List<Window> due(AlertSpec spec, long now) {
    return spec.schedule().due(progress(spec.alertId()).lastEnd(), now);
  }

  /**
   * Evaluates an alert's due windows, oldest first, stopping at the first window whose query fails
   * (it stays due).
   *
   * @param spec the alert
   * @param now the time, epoch ms
   * @return how many windows were evaluated
   */
  public int evaluate(AlertSpec spec, long now) {
    Progress p = progress(spec.alertId());
    List<Window> due = spec.schedule().due(p.lastEnd(), now);
    Map<String, Instance> instances = new LinkedHashMap<>(p.instances());
    List<ObjectNode> records = new ArrayList<>();
    List<Notification> notes = new ArrayList<>();
    List<ObjectNode> errors = new ArrayList<>();
    long lastEnd = p.lastEnd();
    for (Window w : due) {
      Map<String, Double> values;
      try {
        Backend backend =
            spec.target().backend() == null ? Backend.of(engine) : spec.target().backend();
        values = WindowQuery.values(backend, spec.target(), w, queryTimeout);
      } catch (ClickHouseException e) {
        errors.add(
            error(
                e.kind() == ClickHouseException.Kind.REJECTED ? "INVALID_ALERT" : "QUERY_ERROR",
                e.getMessage() + "; the window is evaluated again later",
                now));
        break;
      } catch (InvalidQueryException | UnknownSourceException e) {
        errors.add(error("INVALID_ALERT", "the alert's query is refused: " + e.getMessage(), now));
        break;
      } catch (QueryAbortedException e) {
        errors.add(
            error("QUERY_ERROR", e.getMessage() + "; the window is evaluated again later", now));
        break;
      }
      records.add(window(spec, w, values, instances, notes, errors, now));
      lastEnd = w.end();
    }
    if (!records.isEmpty()) {
      Set<String> refused = outbox.enqueue(notes, true);
      if (!refused.isEmpty()) {
        markDropped(records, refused);
      }
      history.appendWindows(spec.alertId(), records);
    }
    progress.put(spec.alertId(), new Progress(lastEnd, Map.copyOf(instances), List.copyOf(errors)));
    return records.size();
  }

  /** Steps every instance through one window; returns the window's history record. */
  private ObjectNode window(
      AlertSpec spec,
      Window w,
      Map<String, Double> values,
      Map<String, Instance> instances,
      List<Notification> notes,
      List<ObjectNode> errors,
      long now) {
    Map<String, Double> evaluated = new LinkedHashMap<>();
    if (spec.target().groupBy().isEmpty()) {
      evaluated.put("", values.get(""));
    } else {
      instances.keySet().forEach(g -> evaluated.put(g, null));
      evaluated.putAll(values);
    }
    List<String> groups = new ArrayList<>(evaluated.keySet());
    if (groups.size() > MAX_INSTANCES) {
      groups.sort(byRank(evaluated, instances, spec));
      errors.add(
          error(
              "QUERY_ERROR",
              String.format(
                  "the window ending %s has %d groups; the %d that matter most were evaluated",
                  Instant.ofEpochMilli(w.end()), groups.size(), MAX_INSTANCES),
              now));
      groups = groups.subList(0, MAX_INSTANCES);
    }
    ObjectNode record = mapper.createObjectNode();
    record.put("type", "window").put("start", w.start()).put("end", w.end()).put("at", now);
    ArrayNode list = record.putArray("instances");
    Map<String, Instance> next = new LinkedHashMap<>();
    for (String g : groups) {
      Double v = evaluated.get(g);
      double value = valueOf(evaluated, g);
      Transition t =
          Transition.step(
              instances.getOrDefault(g, Instance.fresh(g)),
              value,
              w,
              spec.rules(),
              spec.silencedAt(now));
      ObjectNode e = list.addObject();
      e.put("group", g).put("value", value).put("state", t.next().state());
      e.put("consecutive", t.next().consecutive()).put("notifiedAt", t.next().notifiedAt());
      e.put("missing", v == null);
      ArrayNode sent = e.putArray("notifications");
      if (t.kind() != null) {
        notify(spec, w, g, value, t, now, notes, sent);
      }
      if (v != null || !t.next().state().equals(Instance.OK)) {
        next.put(g, t.next());
      }
    }
    instances.clear();
    instances.putAll(next);
    return record;
  }

  /** Orders groups by how much they matter: not OK first, then breaking, then by value. */
  private static Comparator<String> byRank(
      Map<String, Double> values, Map<String, Instance> instances, AlertSpec spec) {
    Comparator<String> active =
        Comparator.comparing(
            g -> instances.containsKey(g) && !instances.get(g).state().equals(Instance.OK));
    Comparator<String> breaking =
        Comparator.comparing(g -> spec.threshold().exceeds(valueOf(values, g)));
    Comparator<String> value = Comparator.comparingDouble(g -> valueOf(values, g));
    return active.thenComparing(breaking).thenComparing(value).reversed();
  }

  private static double valueOf(Map<String, Double> values, String g) {
    Double v = values.get(g);
    return v == null ? 0 : v;
  }

  private void notify(
      AlertSpec spec,
      Window w,
      String group,
      double value,
      Transition t,
      long now,
      List<Notification> notes,
      ArrayNode sent) {
    String state = t.kind().state();
    for (String webhookId : spec.webhookIds()) {
      String eventId = hash("event", spec.alertId(), webhookId, group);
      String id =
          hash("notification", eventId, Long.toString(w.start()), Long.toString(w.end()), state);
      ObjectNode n = sent.addObject().put("id", id).put("kind", t.kind().name());
      n.put("webhookId", webhookId);
      if (t.suppressed()) {
        n.put("suppressed", "silenced until " + Instant.ofEpochMilli(spec.silencedUntil()));
        continue;
      }
      notes.add(
          new Notification(
              id,
              spec.alertId(),
              spec.serviceId(),
              webhookId,
              state,
              Messages.title(spec, state, value),
              Messages.body(spec, state, group, value, w),
              Messages.link(frontendUrl, spec, w),
              w.start(),
              w.end(),
              eventId,
              value,
              spec.threshold().describe(),
              group,
              now));
    }
  }

  private static void markDropped(List<ObjectNode> records, Set<String> refused) {
    for (ObjectNode r : records) {
      for (JsonNode i : r.get("instances")) {
        for (JsonNode n : i.get("notifications")) {
          if (refused.contains(n.get("id").asText())) {
            ((ObjectNode) n)
                .put(
                    "dropped",
                    "the outbox already holds "
                        + Outbox.MAX_PENDING
                        + " undelivered notifications");
          }
        }
      }
    }
  }

  private Progress load(String alertId) {
    return history
        .lastWindow(alertId)
        .map(
            r -> {
              Map<String, Instance> instances = new LinkedHashMap<>();
              for (JsonNode i : r.path("instances")) {
                String state = i.path("state").asText();
                if (!i.path("missing").asBoolean() || !state.equals(Instance.OK)) {
                  String g = i.path("group").asText();
                  instances.put(
                      g,
                      new Instance(
                          g, state, i.path("consecutive").asInt(), i.path("notifiedAt").asLong()));
                }
              }
              return new Progress(r.get("end").asLong(), Map.copyOf(instances), List.of());
            })
        .orElse(new Progress(Long.MIN_VALUE, Map.of(), List.of()));
  }

  private ObjectNode error(String type, String message, long now) {
    ObjectNode e = mapper.createObjectNode();
    e.put("timestamp", Instant.ofEpochMilli(now).toString());
    e.put("type", type);
    e.put("message", message);
    return e;
  }

  /**
   * @param parts texts
   * @return the first 32 hex digits of the SHA-256 of the texts joined (unambiguously)
   */
  static String hash(String... parts) {
    try {
      MessageDigest d = MessageDigest.getInstance("SHA-256");
      for (String p : parts) {
        byte[] b = p.getBytes(StandardCharsets.UTF_8);
        d.update(java.nio.ByteBuffer.allocate(4).putInt(b.length).array());
        d.update(b);
      }
      return HexFormat.of().formatHex(d.digest()).substring(0, 32);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every Java platform", e);
    }
  }

  @Override
  public void close() throws IOException {
    try {
      history.close();
    } finally {
      outbox.close();
    }
  }
}
