package dev.chartwell.server.management;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.chartwell.server.ChartwellServer;
import dev.chartwell.server.SharedServer;
import dev.chartwell.server.TestServers;
import dev.chartwell.server.http.HttpTestClient;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * How services scale (create, {@code PATCH .../scaling}, {@code PATCH .../replicaScaling}, both
 * autoscaling modes), the list's tag filters and the basic-details fields the Terraform provider
 * sends.
 */
class ServiceScalingIntegrationTest {
  static final ObjectMapper MAPPER = new ObjectMapper();
  static final String SERVICES = "/v1/organizations/" + TestServers.ORG + "/services";
  static final String ADMIN = HttpTestClient.basic("ADMIN", "adminsecret1");
  static final String BASE = "\"name\":\"S\",\"provider\":\"aws\",\"region\":\"us-east-1\"";

  @TempDir Path dataDir;
  ChartwellServer server;
  HttpTestClient http;

  void start(String... flags) throws Exception {
    server = TestServers.start(dataDir, flags);
    http = new HttpTestClient(server.port());
  }

  /**
   * The cases of bad scaling requests share one server, started as each other test's own; each
   * still creates a service of its own, sends it a refused request and checks that service alone.
   */
  @RegisterExtension
  static final SharedServer<ServiceScalingIntegrationTest> SHARED =
      new SharedServer<>(
          ServiceScalingIntegrationTest::new,
          (t, dir) -> {
            t.dataDir = dir;
            t.start();
          },
          ServiceScalingIntegrationTest::stop);

  /** Points this test at the class's shared server; it starts none. */
  void useShared() throws Exception {
    http = SHARED.get().http;
  }

  @AfterEach
  void stop() throws Exception {
    if (server != null) {
      server.close();
    }
  }

  HttpResponse<String> send(String method, String path, String body) throws Exception {
    return http.send(method, path, body, "Authorization", ADMIN);
  }

  JsonNode ok(HttpResponse<String> r) throws Exception {
    assertEquals(200, r.statusCode(), r.body());
    return MAPPER.readTree(r.body()).get("result");
  }

  String error(HttpResponse<String> r) throws Exception {
    assertEquals(400, r.statusCode(), r.body());
    return MAPPER.readTree(r.body()).get("error").textValue();
  }

  String create(String extra) throws Exception {
    return ok(send("POST", SERVICES, "{" + BASE + extra + "}"))
        .get("service")
        .get("id")
        .textValue();
  }

  static String scaling(JsonNode s) {
    return s.get("currentScaling").toString();
  }

  @Test
  void scalingChangesTotalMemoryReplicasAndIdlingDurably() throws Exception {
    start();
    String id = create("");
    JsonNode s =
        ok(
            send(
                "PATCH",
                SERVICES + "/" + id + "/scaling",
                "{\"minTotalMemoryGb\":48,\"maxTotalMemoryGb\":96,\"numReplicas\":5,"
                    + "\"idleScaling\":false,\"idleTimeoutMinutes\":30}"));
    assertEquals(16, s.get("minReplicaMemoryGb").intValue(), "a third of the total");
    assertEquals(32, s.get("maxReplicaMemoryGb").intValue());
    assertEquals(48, s.get("minTotalMemoryGb").intValue());
    assertEquals(96, s.get("maxTotalMemoryGb").intValue());
    assertEquals(5, s.get("numReplicas").intValue());
    assertEquals(false, s.get("idleScaling").booleanValue());
    assertEquals(30, s.get("idleTimeoutMinutes").intValue());
    assertEquals(
        "{\"effectiveAutoscalingMode\":\"vertical\",\"effectiveMinReplicaMemoryGb\":16,"
            + "\"effectiveMaxReplicaMemoryGb\":32,\"effectiveMinReplicas\":5,"
            + "\"effectiveMaxReplicas\":5,\"effectiveIdleScaling\":false,"
            + "\"effectiveIdleTimeoutMinutes\":30}",
        scaling(s));
    server.close();
    start();
    JsonNode after = ok(send("GET", SERVICES + "/" + id, null));
    ((com.fasterxml.jackson.databind.node.ObjectNode) after).set("state", s.get("state"));
    assertEquals(s, after);
  }

  @Test
  void replicaScalingSwitchesBetweenVerticalAndHorizontal() throws Exception {
    start();
    String id = create("");
    String path = SERVICES + "/" + id + "/replicaScaling";
    JsonNode v = ok(send("PATCH", path, "{\"minReplicaMemoryGb\":16,\"maxReplicaMemoryGb\":64}"));
    assertEquals(16, v.get("minReplicaMemoryGb").intValue());
    assertEquals(3, v.get("numReplicas").intValue(), "kept");
    JsonNode h =
        ok(
            send(
                "PATCH",
                path,
                "{\"autoscalingMode\":\"horizontal\",\"minReplicas\":2,\"maxReplicas\":6,"
                    + "\"minReplicaMemoryGb\":32,\"maxReplicaMemoryGb\":32}"));
    assertEquals("horizontal", h.get("autoscalingMode").textValue());
    assertEquals(2, h.get("minReplicas").intValue());
    assertEquals(6, h.get("maxReplicas").intValue());
    assertEquals(32, h.get("replicaMemoryGb").intValue());
    for (String absent : List.of("numReplicas", "minTotalMemoryGb", "maxTotalMemoryGb")) {
      assertFalse(h.has(absent), absent + " is absent in horizontal mode");
    }
    assertEquals(
        "{\"effectiveAutoscalingMode\":\"horizontal\",\"effectiveMinReplicaMemoryGb\":32,"
            + "\"effectiveMaxReplicaMemoryGb\":32,\"effectiveMinReplicas\":2,"
            + "\"effectiveMaxReplicas\":6,\"effectiveIdleScaling\":true,"
            + "\"effectiveIdleTimeoutMinutes\":15}",
        scaling(h));
    assertEquals(
        "BAD_REQUEST: numReplicas: horizontal autoscaling scales between minReplicas and"
            + " maxReplicas",
        error(send("PATCH", SERVICES + "/" + id + "/scaling", "{\"numReplicas\":4}")));
    JsonNode back = ok(send("PATCH", path, "{\"autoscalingMode\":\"vertical\",\"numReplicas\":4}"));
    assertEquals("vertical", back.get("autoscalingMode").textValue());
    assertEquals(4, back.get("numReplicas").intValue());
    assertEquals(32, back.get("minReplicaMemoryGb").intValue(), "the per-replica memory is kept");
    assertEquals(32, back.get("maxReplicaMemoryGb").intValue());
    assertFalse(back.has("minReplicas") || back.has("replicaMemoryGb"), back.toString());
  }

  @Test
  void createHonoursReplicaBandsInsteadOfIgnoringThem() throws Exception {
    start();
    String horizontal =
        create(
            ",\"autoscalingMode\":\"horizontal\",\"minReplicas\":2,\"maxReplicas\":5,"
                + "\"minReplicaMemoryGb\":24,\"maxReplicaMemoryGb\":24");
    JsonNode h = ok(send("GET", SERVICES + "/" + horizontal, null));
    assertEquals(2, h.get("minReplicas").intValue());
    assertEquals(5, h.get("maxReplicas").intValue());
    assertEquals(24, h.get("replicaMemoryGb").intValue());
    String fixed = create(",\"minReplicas\":4,\"maxReplicas\":4");
    assertEquals(4, ok(send("GET", SERVICES + "/" + fixed, null)).get("numReplicas").intValue());
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      value = {
        "replicaScaling | {\"minReplicas\":2} | minReplicas, maxReplicas: give both or neither",
        "replicaScaling | {\"minReplicas\":2,\"maxReplicas\":4} | minReplicas: must equal maxReplicas in vertical autoscaling (a fixed count)",
        "replicaScaling | {\"numReplicas\":3,\"minReplicas\":3,\"maxReplicas\":3} | numReplicas: not together with minReplicas and maxReplicas",
        "replicaScaling | {\"autoscalingMode\":\"horizontal\"} | minReplicas, maxReplicas: horizontal autoscaling needs both; minReplicaMemoryGb, maxReplicaMemoryGb: horizontal autoscaling needs a fixed memory per replica (both equal)",
        "replicaScaling | {\"autoscalingMode\":\"horizontal\",\"minReplicas\":3,\"maxReplicas\":2,\"minReplicaMemoryGb\":8,\"maxReplicaMemoryGb\":16} | minReplicas: must not exceed maxReplicas; maxReplicaMemoryGb: must equal minReplicaMemoryGb in horizontal autoscaling (a fixed memory per replica)",
        "replicaScaling | {\"autoscalingMode\":\"sideways\"} | autoscalingMode: must be one of vertical, horizontal",
        "replicaScaling | {\"minReplicaMemoryGb\":200} | minReplicaMemoryGb: must not exceed maxReplicaMemoryGb",
        "replicaScaling | {\"maxReplicaMemoryGb\":10} | maxReplicaMemoryGb: must be a multiple of 4 from 8 to 356",
        "replicaScaling | {\"numReplicas\":1} | numReplicas: must be 2 to 20 for the first service of a warehouse",
        "replicaScaling | {\"minTotalMemoryGb\":24} | minTotalMemoryGb: unknown field",
        "scaling | {\"minReplicaMemoryGb\":8} | minReplicaMemoryGb: unknown field",
        "scaling | {\"numReplicas\":21} | numReplicas: must be 2 to 20 for the first service of a warehouse",
        "scaling | {\"idleTimeoutMinutes\":4} | idleTimeoutMinutes: must be at least 5",
        "scaling | {\"maxTotalMemoryGb\":100} | maxTotalMemoryGb: must be a multiple of 12 from 24 to 1068",
        "scaling | {\"minTotalMemoryGb\":480} | minTotalMemoryGb: must not exceed maxTotalMemoryGb (480 > 360)",
        "scaling | {\"minTotalMemoryGb\":96,\"maxTotalMemoryGb\":48} | minTotalMemoryGb: must not exceed maxTotalMemoryGb (96 > 48)",
        "scaling | [] | request body must be a JSON object",
      })
  void badScalingRequestsAre400NamingTheField(String path, String body, String message)
      throws Exception {
    useShared();
    String id = create("");
    assertEquals(
        "BAD_REQUEST: " + message, error(send("PATCH", SERVICES + "/" + id + "/" + path, body)));
    JsonNode unchanged = ok(send("GET", SERVICES + "/" + id, null));
    assertEquals(3, unchanged.get("numReplicas").intValue());
    assertEquals(8, unchanged.get("minReplicaMemoryGb").intValue());
  }

  @Test
  void tierRulesApplyToScaling() throws Exception {
    start("--org-tier", "BASIC", "--org-paid", "false");
    String id = create("");
    assertEquals(
        "BAD_REQUEST: autoscalingMode: horizontal autoscaling is not available in BASIC"
            + " organizations; maxReplicas: must be 1 in BASIC organizations",
        error(
            send(
                "PATCH",
                SERVICES + "/" + id + "/replicaScaling",
                "{\"autoscalingMode\":\"horizontal\",\"minReplicas\":1,\"maxReplicas\":2,"
                    + "\"minReplicaMemoryGb\":8,\"maxReplicaMemoryGb\":8}")));
    assertEquals(
        "BAD_REQUEST: maxReplicaMemoryGb: at most 120 for organizations without a paid plan",
        error(
            send(
                "PATCH", SERVICES + "/" + id + "/replicaScaling", "{\"maxReplicaMemoryGb\":124}")));
    String dev = create(",\"tier\":\"development\"");
    assertEquals(
        "BAD_REQUEST: minTotalMemoryGb: only for production services",
        error(send("PATCH", SERVICES + "/" + dev + "/scaling", "{\"minTotalMemoryGb\":24}")));
  }

  @Test
  void theListFiltersByTags() throws Exception {
    start();
    String a = create(",\"tags\":[{\"key\":\"env\",\"value\":\"test\"},{\"key\":\"team\"}]");
    String b = create(",\"tags\":[{\"key\":\"env\",\"value\":\"prod\"}]");
    String c = create("");
    assertEquals(List.of(a), ids("?filter=tag:env=test"));
    assertEquals(List.of(a, b), ids("?filter=tag:env"));
    assertEquals(List.of(), ids("?filter=tag:env=nomatch"));
    assertEquals(List.of(a), ids("?filter=tag:env&filter=tag%3Ateam"));
    assertEquals(List.of(a, b, c), ids(""));
    assertEquals(
        "BAD_REQUEST: filter: 'name:S' is not a tag filter (tag:<key> or tag:<key>=<value>)",
        error(send("GET", SERVICES + "?filter=name:S", null)));
  }

  List<String> ids(String query) throws Exception {
    List<String> out = new ArrayList<>();
    ok(send("GET", SERVICES + query, null)).forEach(s -> out.add(s.get("id").textValue()));
    return out;
  }

  @Test
  void basicDetailsTagsAndEncryptionKey() throws Exception {
    start("--org-tier", "ENTERPRISE");
    String id = create(",\"tags\":[{\"key\":\"env\",\"value\":\"a\"}]");
    JsonNode s =
        ok(
            send(
                "PATCH",
                SERVICES + "/" + id,
                "{\"tags\":{\"remove\":[{\"key\":\"env\"}],\"add\":[{\"key\":\"owner\"}]}}"));
    assertEquals("[{\"key\":\"owner\"}]", s.get("tags").toString());
    assertEquals(
        "BAD_REQUEST: transparentDataEncryptionKeyId: the service has no transparent data"
            + " encryption",
        error(send("PATCH", SERVICES + "/" + id, "{\"transparentDataEncryptionKeyId\":\"k-2\"}")));
    String tde = create(",\"hasTransparentDataEncryption\":true");
    assertEquals(
        "k-2",
        ok(send("PATCH", SERVICES + "/" + tde, "{\"transparentDataEncryptionKeyId\":\"k-2\"}"))
            .get("transparentDataEncryptionKeyId")
            .textValue());
    assertEquals(
        "BAD_REQUEST: tags[0].key: is required; tags[1].value: at most 256 characters",
        error(
            send(
                "POST",
                SERVICES,
                "{"
                    + BASE
                    + ",\"tags\":[{\"value\":\"x\"},{\"key\":\"k\",\"value\":\""
                    + "v".repeat(257)
                    + "\"}]}")));
  }
}
