package dev.chartwell.server.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.chartwell.server.Await;
import dev.chartwell.server.ChartwellServer;
import dev.chartwell.server.TestServers;
import dev.chartwell.server.http.HttpTestClient;
import java.net.http.HttpResponse;
import java.nio.file.Path;

/**
 * A browser test's server with one running service: the set-up the explorer's browser tests share,
 * skipped loudly when Chromium is missing.
 */
abstract class ServiceBrowserPage extends BrowserPage {
  static final String ADMIN = HttpTestClient.basic("ADMIN", "adminsecret1");
  static final ObjectMapper MAPPER = new ObjectMapper();
  static final String SERVICES = "/v1/organizations/" + TestServers.ORG + "/services";

  ChartwellServer server;
  HttpTestClient http;
  String serviceId;
  String token;

  /** Chromium and its driver, once found. */
  Path[] chromium;

  /** Why the tests are skipped, or {@code null}. */
  String missing;

  /**
   * Starts the server in {@code dir} and creates a service, waiting until it runs.
   *
   * @return false, having said why, when Chromium is missing
   */
  boolean startWithService(Path dir, String name) throws Exception {
    java.util.Optional<Path[]> found = Chromium.find();
    if (found.isEmpty()) {
      missing =
          "SKIPPED: the web UI's browser tests need Debian's Chromium and its driver: apt-get"
              + " install -y "
              + Chromium.PACKAGES
              + " (or set CHROMIUM_BIN and CHROMEDRIVER_BIN)";
      System.err.println("\n*** " + missing + " ***\n");
      return false;
    }
    chromium = found.get();
    server = TestServers.start(dir);
    http = new HttpTestClient(server.port());
    JsonNode created =
        cloud(
            "POST",
            SERVICES,
            "{\"name\":\"" + name + "\",\"provider\":\"aws\",\"region\":\"us-east-1\"}");
    serviceId = created.get("service").get("id").textValue();
    token = created.get("password").textValue();
    Await.until(
        "the service running",
        () ->
            cloud("GET", SERVICES + "/" + serviceId, null).get("state").asText().equals("running"));
    return true;
  }

  /** A Cloud API call with the admin key; its {@code result}. */
  JsonNode cloud(String method, String path, String body) throws Exception {
    HttpResponse<String> r = http.send(method, path, body, "Authorization", ADMIN);
    assertEquals(200, r.statusCode(), r.body());
    return MAPPER.readTree(r.body()).get("result");
  }
}
