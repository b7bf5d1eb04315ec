package dev.chartwell.server.alerts;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.chartwell.engine.Engine;
import dev.chartwell.server.catalog.Catalog;
import dev.chartwell.server.clickstack.Kind;
import dev.chartwell.server.clickstack.Resources;
import dev.chartwell.server.http.ApiException;
import dev.chartwell.server.management.Services;
import dev.chartwell.server.security.OutboundPolicy;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * Alerts that fire: the evaluation scheduler, the alerts' state and history, and the delivery of
 * their notifications. Everything lives under {@code <data-dir>/alerts/}: {@code history/} (the
 * {@link HistoryStore}) and {@code outbox.log} (the {@link Outbox}).
 *
 * <p>One scheduler thread evaluates, one minute after another (a second past each UTC minute, and
 * once at start to catch up): every alert's due windows, oldest first, one engine query per window,
 * at most {@link #MAX_WINDOWS_PER_TICK} windows and {@link #TICK_BUDGET} per tick (what is left
 * stays due for the next one). Deliveries run on their own threads, so a slow receiver never delays
 * an evaluation. Tests drive both with {@link #tick} and {@link #deliverDue} on a clock of their
 * own instead of {@link #start}ing the threads.
 */
public final class Alerts implements Resources.AlertStatus, AutoCloseable {
  /** The most windows one tick evaluates. */
  static final int MAX_WINDOWS_PER_TICK = 10_000;

  /** How long one tick may keep starting evaluations. */
  static final Duration TICK_BUDGET = Duration.ofSeconds(45);

  /** How long one window's query may run. */
  static final Duration QUERY_TIMEOUT = Duration.ofSeconds(20);

  /** How far past each UTC minute the scheduler evaluates. */
  static final long TICK_DELAY_MILLIS = 1_000;

  private static final long PRUNE_EVERY_MILLIS = 3_600_000;

  private final Resources resources;
  private final AlertSpecs specs;
  private final HistoryStore history;
  private final Outbox outbox;
  private final Evaluator evaluator;
  private final Delivery delivery;
  private final ObjectMapper mapper;
  private final Clock clock;
  private final AlertOptions options;
  private final Consumer<String> log;
  private final LongAdder windowsEvaluated = new LongAdder();
  private final Map<String, ObjectNode> webhookErrors = new ConcurrentHashMap<>();
  private final Object tickLock = new Object();
  private ScheduledExecutorService threads;
  private long lastPrune = Long.MIN_VALUE;

  /**
   * What one tick did.
   *
   * @param evaluated windows evaluated
   * @param deferred alerts left due for the next tick (the tick's bounds were reached)
   */
  public record Tick(int evaluated, int deferred) {}

  private Alerts(
      Resources resources,
      AlertSpecs specs,
      Evaluator evaluator,
      ObjectMapper mapper,
      Clock clock,
      AlertOptions options,
      OutboundPolicy outbound,
      Consumer<String> log) {
    this.resources = resources;
    this.specs = specs;
    this.evaluator = evaluator;
    this.history = evaluator.history();
    this.outbox = evaluator.outbox();
    this.mapper = mapper;
    this.clock = clock;
    this.options = options;
    this.log = log;
    this.delivery =
        new Delivery(
            outbox,
            history,
            (service, webhook) -> resources.lookup(Kind.WEBHOOK, service, webhook),
            new WebhookClient(options.webhookTimeout(), outbound),
            mapper,
            clock,
            options,
            this::delivered);
  }

  /**
   * Opens the alerts' state under the data directory; notifications left pending by the last
   * process are delivered once {@link #start}ed.
   *
   * @param dataDir the data directory
   * @param resources the alerts, dashboards, saved searches and webhooks
   * @param catalog the sources
   * @param services the services
   * @param engine the engine the queries run on
   * @param mapper JSON codec
   * @param clock the time evaluations and retries follow
   * @param options delivery options
   * @param outbound which addresses webhooks may reach
   * @param log where to report, one line each
   * @return the alerts
   * @throws IOException when the outbox cannot be read or written
   */
  public static Alerts open(
      Path dataDir,
      Resources resources,
      Catalog catalog,
      Services services,
      Engine engine,
      ObjectMapper mapper,
      Clock clock,
      AlertOptions options,
      OutboundPolicy outbound,
      Consumer<String> log)
      throws IOException {
    Evaluator evaluator =
        Evaluator.open(
            dataDir.resolve("alerts"),
            engine,
            mapper,
            options.frontendUrl().orElse(null),
            QUERY_TIMEOUT,
            log);
    if (evaluator.outbox().pendingCount() > 0) {
      log.accept(
          "alerts: "
              + evaluator.outbox().pendingCount()
              + " notifications left pending are resumed");
    }
    return new Alerts(
        resources,
        new AlertSpecs(resources, catalog, services),
        evaluator,
        mapper,
        clock,
        options,
        outbound,
        log);
  }

  /** Starts the scheduler (catching up at once) and the delivery threads. */
  public synchronized void start() {
    threads =
        Executors.newScheduledThreadPool(
            2,
            r -> {
              Thread t = new Thread(r, "chartwell-alerts");
              t.setDaemon(true);
              return t;
            });
    threads.schedule(this::scheduledTick, 0, TimeUnit.MILLISECONDS);
    threads.scheduleWithFixedDelay(this::scheduledDelivery, 500, 500, TimeUnit.MILLISECONDS);
  }

  private void scheduledTick() {
    try {
      tick();
    } catch (RuntimeException | Error e) {
      log.accept("alerts: evaluation failed: " + e);
    } finally {
      long now = clock.millis();
      long next = Math.floorDiv(now, 60_000) * 60_000 + 60_000 + TICK_DELAY_MILLIS;
      synchronized (this) {
        if (threads != null) {
          threads.schedule(this::scheduledTick, next - now, TimeUnit.MILLISECONDS);
        }
      }
    }
  }

  private void scheduledDelivery() {
    try {
      deliverDue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      log.accept("alerts: delivery failed: " + e);
    }
  }

  /**
   * Evaluates every alert's due windows, within the tick's bounds.
   *
   * @return what was done
   */
  public Tick tick() {
    synchronized (tickLock) {
      return tickLocked();
    }
  }

  private Tick tickLocked() {
    long now = clock.millis();
    long started = System.nanoTime();
    List<AlertSpecs.Resolved> all = specs.all();
    Set<String> alive = new HashSet<>();
    List<AlertSpec> ready = new ArrayList<>();
    Map<AlertSpec, Long> oldest = new LinkedHashMap<>();
    for (AlertSpecs.Resolved r : all) {
      alive.add(r.alertId());
      if (r.spec() == null) {
        evaluator.unresolved(r.alertId(), r.errorType(), r.error(), now);
        continue;
      }
      List<Window> due = evaluator.due(r.spec(), now);
      if (!due.isEmpty()) {
        ready.add(r.spec());
        oldest.put(r.spec(), due.get(0).start());
      }
    }
    evaluator.forgetAllBut(alive);
    webhookErrors.keySet().retainAll(alive);
    ready.sort(Comparator.comparing(oldest::get));
    int evaluated = 0;
    int deferred = 0;
    for (AlertSpec spec : ready) {
      if (evaluated >= MAX_WINDOWS_PER_TICK
          || System.nanoTime() - started > TICK_BUDGET.toNanos()) {
        deferred++;
        continue;
      }
      try {
        evaluated += evaluator.evaluate(spec, now);
      } catch (RuntimeException e) {
        log.accept("alerts: evaluating alert " + spec.alertId() + " failed: " + e);
        evaluator.unresolved(spec.alertId(), "UNKNOWN", "the evaluation failed; see the log", now);
      }
    }
    if (deferred > 0) {
      log.accept("alerts: " + deferred + " alerts are left for the next evaluation");
    }
    if (now - lastPrune >= PRUNE_EVERY_MILLIS) {
      history.prune(now, alive);
      lastPrune = now;
    }
    windowsEvaluated.add(evaluated);
    return new Tick(evaluated, deferred);
  }

  /**
   * Makes one attempt at every notification due now and waits for them.
   *
   * @return how many attempts were made
   * @throws InterruptedException when interrupted while waiting
   */
  public int deliverDue() throws InterruptedException {
    return delivery.runDue();
  }

  /**
   * @return alert windows evaluated since the server started
   */
  public long windowsEvaluated() {
    return windowsEvaluated.sum();
  }

  /**
   * @param outcome {@code delivered}, {@code retrying} or {@code failed}
   * @return webhook attempts with that outcome since the server started
   */
  public long webhookAttempts(String outcome) {
    return switch (outcome) {
      case "delivered" -> delivery.delivered.sum();
      case "retrying" -> delivery.retrying.sum();
      default -> delivery.failed.sum();
    };
  }

  /**
   * @return how many notifications wait for delivery
   */
  public int pendingNotifications() {
    return outbox.pendingCount();
  }

  private void delivered(Delivery.Result r) {
    if (r.error() == null) {
      webhookErrors.remove(r.alertId());
    } else {
      webhookErrors.put(r.alertId(), error("WEBHOOK_ERROR", r.error()));
    }
  }

  /**
   * The evaluations of an alert, newest first ({@code GET .../alerts/{id}/history} of both APIs).
   *
   * @param serviceId the service
   * @param alertId the alert
   * @param limit the {@code limit} parameter, or {@code null} for the default (100)
   * @param before the {@code before} parameter (an ISO-8601 time: only windows ending before it),
   *     or {@code null}
   * @return the entries
   * @throws ApiException 404 when the service has no such alert, 400 for bad parameters
   */
  public ArrayNode history(String serviceId, String alertId, String limit, String before) {
    resources
        .lookup(Kind.ALERT, serviceId, alertId)
        .orElseThrow(() -> ApiException.notFound("alert " + alertId + " does not exist"));
    int n = HistoryView.DEFAULT_LIMIT;
    if (limit != null) {
      try {
        n = Integer.parseInt(limit.strip());
      } catch (NumberFormatException e) {
        n = -1;
      }
      if (n < 1 || n > HistoryView.MAX_LIMIT) {
        throw ApiException.badRequest(
            "limit: must be an integer from 1 to "
                + HistoryView.MAX_LIMIT
                + ", got '"
                + limit
                + "'");
      }
    }
    long until = Long.MAX_VALUE;
    if (before != null) {
      try {
        until = java.time.OffsetDateTime.parse(before.strip()).toInstant().toEpochMilli();
      } catch (java.time.format.DateTimeParseException e) {
        throw ApiException.badRequest(
            "before: must be an ISO-8601 date and time with an offset, such as"
                + " 2026-02-08T10:00:00Z, got '"
                + before
                + "'");
      }
    }
    return HistoryView.read(history, mapper, alertId, n, until);
  }

  /**
   * Sends a test message to a webhook now, once ({@code POST .../webhooks/{id}/test}).
   *
   * @param serviceId the service
   * @param webhookId the webhook
   * @return {@code {delivered, statusCode?, error?}}
   * @throws ApiException 404 when the service has no such webhook
   */
  public Map<String, Object> testWebhook(String serviceId, String webhookId) {
    ObjectNode webhook =
        resources
            .lookup(Kind.WEBHOOK, serviceId, webhookId)
            .orElseThrow(() -> ApiException.notFound("webhook " + webhookId + " does not exist"));
    long now = clock.millis();
    String id = UUID.randomUUID().toString().replace("-", "");
    Notification test =
        new Notification(
            id,
            "",
            serviceId,
            webhookId,
            "INSUFFICIENT_DATA",
            "Test notification from Chartwell",
            "This is a test message to check that webhook '"
                + webhook.path("name").asText()
                + "' is configured correctly.",
            options.frontendUrl().orElse(""),
            now,
            now,
            "test-" + id,
            0,
            "",
            "",
            now);
    WebhookClient.Outcome o = delivery.send(webhook, test);
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("delivered", o.delivered());
    if (o.statusCode() != 0) {
      out.put("statusCode", o.statusCode());
    }
    if (o.error() != null) {
      out.put("error", o.error());
    }
    return out;
  }

  @Override
  public void describe(ObjectNode alert) {
    String id = alert.path("id").asText();
    Evaluator.Progress p = evaluator.progress(id);
    alert.put("state", p.state());
    List<ObjectNode> errors = new ArrayList<>(p.errors());
    ObjectNode webhook = webhookErrors.get(id);
    if (webhook != null) {
      errors.add(webhook);
    }
    if (!errors.isEmpty()) {
      alert.putArray("executionErrors").addAll(errors);
    }
  }

  private ObjectNode error(String type, String message) {
    ObjectNode e = mapper.createObjectNode();
    e.put("timestamp", Instant.ofEpochMilli(clock.millis()).toString());
    e.put("type", type);
    e.put("message", message);
    return e;
  }

  @Override
  public void close() throws IOException {
    ScheduledExecutorService running;
    synchronized (this) {
      running = threads;
      threads = null;
    }
    if (running != null) {
      running.shutdownNow();
      try {
        running.awaitTermination(QUERY_TIMEOUT.toSeconds() + 5, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    delivery.close();
    synchronized (tickLock) {
      evaluator.close();
    }
  }
}
