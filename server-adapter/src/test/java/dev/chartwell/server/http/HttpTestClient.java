package dev.chartwell.server.http;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;

/** A small JDK HttpClient wrapper for tests talking to a server on loopback. */
public final class HttpTestClient {
  private final HttpClient client =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final String base;
  private final int port;

  /**
   * @param port the server's loopback port
   */
  public HttpTestClient(int port) {
    this.base = "http://127.0.0.1:" + port;
    this.port = port;
  }

  /**
   * @return the server's port
   */
  public int port() {
    return port;
  }

  /**
   * Sends a request; one with a body and no {@code Content-Type} among {@code headers} is sent as
   * {@code application/json}, as the API requires.
   *
   * @param method HTTP method
   * @param path path and query
   * @param body body text, or {@code null}
   * @param headers header name/value pairs
   * @return the response
   */
  public HttpResponse<String> send(String method, String path, String body, String... headers)
      throws IOException, InterruptedException {
    boolean typed = false;
    for (int i = 0; i < headers.length; i += 2) {
      typed |= headers[i].equalsIgnoreCase("Content-Type");
    }
    if (body == null || typed) {
      return sendAsIs(method, path, body, headers);
    }
    String[] withType = java.util.Arrays.copyOf(headers, headers.length + 2);
    withType[headers.length] = "Content-Type";
    withType[headers.length + 1] = "application/json";
    return sendAsIs(method, path, body, withType);
  }

  /**
   * Sends a request with exactly the given headers (no default {@code Content-Type}).
   *
   * @param method HTTP method
   * @param path path and query
   * @param body body text, or {@code null}
   * @param headers header name/value pairs
   * @return the response
   */
  public HttpResponse<String> sendAsIs(String method, String path, String body, String... headers)
      throws IOException, InterruptedException {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(base + path))
            .timeout(Duration.ofSeconds(30))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
    for (int i = 0; i < headers.length; i += 2) {
      b.header(headers[i], headers[i + 1]);
    }
    return client.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
  }

  /**
   * @param user user name
   * @param password password
   * @return the value of an {@code Authorization: Basic} header
   */
  public static String basic(String user, String password) {
    return "Basic "
        + Base64.getEncoder()
            .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
  }
}
