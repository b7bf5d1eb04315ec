package dev.chartwell.server.alerts;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * Delivers what the outbox holds. Each due notification gets one attempt on a small pool of
 * threads; a timeout, a connection error, 429 or 5xx is tried again after {@code retryDelay × 3^(n
 * - 1)} (jittered by ±50%) until {@code attempts} were made; any other answer (a 3xx included) or a
 * webhook that no longer exists ends it at once. Every outcome goes to the outbox (so a restart
 * resumes what is pending) and to the alert's history.
 */
final class Delivery implements AutoCloseable {
  /** Threads sending at once. */
  static final int THREADS = 4;

  /** Finds webhooks as stored, their headers and query parameters included. */
  @FunctionalInterface
  interface Webhooks {
    /**
     * @param serviceId a service
     * @param webhookId a webhook
     * @return the webhook, if the service still has it
     */
    Optional<ObjectNode> find(String serviceId, String webhookId);
  }

  /**
   * What became of a notification, for the alert's status.
   *
   * @param alertId the alert
   * @param webhookId the webhook
   * @param error why it was given up, or {@code null} when it was delivered
   */
  record Result(String alertId, String webhookId, String error) {}

  private final Outbox outbox;
  private final HistoryStore history;
  private final Webhooks webhooks;
  private final WebhookClient client;
  private final ObjectMapper mapper;
  private final Clock clock;
  private final AlertOptions options;
  private final Consumer<Result> results;
  private final ExecutorService pool;

  Delivery(
      Outbox outbox,
      HistoryStore history,
      Webhooks webhooks,
      WebhookClient client,
      ObjectMapper mapper,
      Clock clock,
      AlertOptions options,
      Consumer<Result> results) {
    this.outbox = outbox;
    this.history = history;
    this.webhooks = webhooks;
    this.client = client;
    this.mapper = mapper;
    this.clock = clock;
    this.options = options;
    this.results = results;
    AtomicInteger n = new AtomicInteger();
    this.pool =
        Executors.newFixedThreadPool(
            THREADS,
            r -> {
              Thread t = new Thread(r, "chartwell-alert-delivery-" + n.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
  }

  /**
   * Makes one attempt at every notification due now and waits for them; then at those due after
   * them (a resolve behind its alert), until none is due.
   *
   * @return how many attempts were made
   * @throws InterruptedException when interrupted while waiting
   */
  int runDue() throws InterruptedException {
    int attempts = 0;
    List<Outbox.Pending> due;
    while (!(due = outbox.takeDue(clock.millis(), 64)).isEmpty()) {
      List<Future<?>> running = new ArrayList<>();
      for (Outbox.Pending p : due) {
        running.add(pool.submit(() -> attempt(p)));
      }
      for (Future<?> f : running) {
        try {
          f.get();
        } catch (ExecutionException e) {
          throw new IllegalStateException("a webhook delivery failed unexpectedly", e.getCause());
        }
      }
      attempts += due.size();
    }
    return attempts;
  }

  /**
   * Sends one message to a webhook now, once, outside the outbox.
   *
   * @param webhook the webhook as stored
   * @param n the message
   * @return the outcome
   */
  WebhookClient.Outcome send(ObjectNode webhook, Notification n) {
    return client.post(WebhookRequests.build(webhook, n, mapper));
  }

  /** Webhook attempts by outcome: delivered, retrying, failed. */
  final LongAdder delivered = new LongAdder();

  final LongAdder retrying = new LongAdder();
  final LongAdder failed = new LongAdder();

  private void attempt(Outbox.Pending p) {
    Notification n = p.notification();
    int attempts = p.attempts() + 1;
    Optional<ObjectNode> webhook = webhooks.find(n.serviceId(), n.webhookId());
    WebhookClient.Outcome o =
        webhook.isPresent()
            ? send(webhook.get(), n)
            : new WebhookClient.Outcome(
                false, false, 0, "webhook " + n.webhookId() + " no longer exists");
    long now = clock.millis();
    ObjectNode r = mapper.createObjectNode();
    r.put("type", "outcome").put("id", n.id()).put("attempts", attempts).put("at", now);
    if (o.statusCode() != 0) {
      r.put("statusCode", o.statusCode());
    }
    if (o.error() != null) {
      r.put("error", o.error());
    }
    if (!o.delivered() && o.retryable() && attempts < options.webhookAttempts()) {
      long delay = options.retryDelay().toMillis() * (long) Math.pow(3, attempts - 1);
      long next = now + (long) (delay * (0.5 + ThreadLocalRandom.current().nextDouble()));
      retrying.increment();
      outbox.retryAt(n.id(), attempts, next);
      history.appendOutcome(n.alertId(), r.put("status", "retrying").put("next", next), now);
      return;
    }
    outbox.finish(n.id(), now);
    (o.delivered() ? delivered : failed).increment();
    history.appendOutcome(
        n.alertId(), r.put("status", o.delivered() ? "delivered" : "failed"), now);
    String name =
        webhook.map(w -> "webhook '" + w.path("name").asText() + "'").orElse("its webhook");
    results.accept(
        new Result(
            n.alertId(),
            n.webhookId(),
            o.delivered()
                ? null
                : "failed to notify "
                    + name
                    + " after "
                    + attempts
                    + " attempt"
                    + (attempts == 1 ? "" : "s")
                    + ": "
                    + o.error()));
  }

  @Override
  public void close() {
    pool.shutdownNow();
  }
}
