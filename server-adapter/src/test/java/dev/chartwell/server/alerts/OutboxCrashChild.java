package dev.chartwell.server.alerts;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.chartwell.server.security.OutboundPolicy;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The child of {@link OutboxCrashTest}: queues one notification in the outbox under {@code args[0]}
 * (a data directory), says {@code ready}, and delivers it to the webhook at {@code args[1]}, whose
 * receiver kills this process before answering.
 */
public final class OutboxCrashChild {
  private OutboxCrashChild() {}

  /**
   * @param args the data directory and the webhook URL
   */
  public static void main(String[] args) throws Exception {
    haltWhenParentGoes();
    Path dir = Path.of(args[0]);
    ObjectMapper mapper = new ObjectMapper();
    Outbox outbox = Outbox.open(dir.resolve("outbox.log"), mapper, System.err::println);
    HistoryStore history = new HistoryStore(dir.resolve("history"), mapper, System.err::println);
    outbox.enqueue(List.of(OutboxCrashTest.notification()), true);
    Delivery delivery = delivery(outbox, history, mapper, args[1], Clock.systemUTC());
    System.out.println("ready");
    System.out.flush();
    delivery.runDue();
    System.out.println("not killed");
  }

  static Delivery delivery(
      Outbox outbox, HistoryStore history, ObjectMapper mapper, String url, Clock clock) {
    ObjectNode webhook = mapper.createObjectNode().put("name", "w").put("service", "generic");
    webhook.put("url", url);
    return new Delivery(
        outbox,
        history,
        (service, id) -> Optional.of(webhook.deepCopy()),
        new WebhookClient(Duration.ofSeconds(30), OutboundPolicy.open()),
        mapper,
        clock,
        AlertOptions.DEFAULTS,
        r -> {});
  }

  private static void haltWhenParentGoes() {
    Thread guard =
        new Thread(
            () -> {
              try {
                while (System.in.read() >= 0) {
                  // the parent never writes; end of input means it is gone
                }
              } catch (java.io.IOException e) {
                // as end of input
              }
              Runtime.getRuntime().halt(3);
            });
    guard.setDaemon(true);
    guard.start();
  }
}
