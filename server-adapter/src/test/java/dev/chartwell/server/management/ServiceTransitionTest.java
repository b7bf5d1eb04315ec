package dev.chartwell.server.management;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.chartwell.server.http.Json;
import dev.chartwell.server.store.Secrets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A transition that ends before the service that began it is stored must still end it: with a
 * transition of no length, a new service once stayed {@code provisioning} for good (its end ran
 * before the document was stored and found nothing to move on), and so could a service whose store
 * write took longer than the one-second transition on a busy machine.
 */
class ServiceTransitionTest {
  private static final Secrets SECRETS = Secrets.of(new byte[32]);
  private static final SecretHasher HASHER = new SecretHasher(SecretHasher.MIN_ITERATIONS);

  static final ObjectMapper MAPPER = new ObjectMapper();

  @TempDir Path dir;

  @Test
  void aServiceWhoseTransitionEndsAtOnceIsRunning() throws Exception {
    Json json = new Json();
    Accounts accounts = Accounts.open(dir, json.mapper(), Clock.systemUTC(), SECRETS, HASHER);
    Organization org =
        accounts
            .bootstrap(
                java.util.Optional.of("3f2504e0-4f89-41d3-9a0c-0305e82c3301"),
                java.util.Optional.of("KEY"),
                java.util.Optional.of("secret-of-key-1"),
                "SCALE",
                true)
            .organization();
    // Ends each transition the moment it is scheduled, on the scheduling thread: the harshest
    // timing a real timer could produce.
    List<String> ended = new ArrayList<>();
    TransitionTimer atOnce =
        new TransitionTimer() {
          @Override
          public void schedule(Runnable completion, long delayMillis) {
            completion.run();
            ended.add("ended");
          }

          @Override
          public void close() {}
        };
    try (Services services =
        Services.open(
            dir,
            json.mapper(),
            Clock.systemUTC(),
            Duration.ZERO,
            atOnce,
            gone -> {},
            SECRETS,
            HASHER)) {
      JsonNode body =
          MAPPER.readTree("{\"name\":\"A\",\"provider\":\"aws\",\"region\":\"us-east-1\"}");
      String id = services.create(org, body).service().get("id").asText();
      assertEquals(List.of("ended"), ended);
      assertEquals("running", services.get(org.id(), id).get("state").asText());
    } finally {
      accounts.close();
    }
  }
}
