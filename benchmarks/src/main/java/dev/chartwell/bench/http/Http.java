package dev.chartwell.bench.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;

/** A small HTTP/1.1 client for the bench tool: JSON in and out, failures as exceptions. */
final class Http {
  static final ObjectMapper JSON = new ObjectMapper();

  private final HttpClient client =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(10))
          .build();

  /**
   * @return the underlying client (one connection pool for the whole run)
   */
  HttpClient client() {
    return client;
  }

  /**
   * @param user a user name
   * @param password its password
   * @return the value of an HTTP Basic {@code Authorization} header
   */
  static String basic(String user, String password) {
    return "Basic "
        + Base64.getEncoder()
            .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
  }

  /**
   * Sends a JSON request and reads a JSON answer.
   *
   * @param method the method
   * @param uri where
   * @param authorization the {@code Authorization} header
   * @param body a JSON body, or {@code null}
   * @return the answer
   * @throws IllegalStateException when the answer is not a 2xx, naming status and body
   */
  JsonNode json(String method, String uri, String authorization, String body)
      throws IOException, InterruptedException {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(uri))
            .timeout(Duration.ofMinutes(5))
            .header("Authorization", authorization)
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
    if (body != null) {
      b.header("Content-Type", "application/json");
    }
    HttpResponse<String> r = client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() / 100 != 2) {
      throw new IllegalStateException(method + " " + uri + ": " + r.statusCode() + " " + r.body());
    }
    return JSON.readTree(r.body());
  }
}
