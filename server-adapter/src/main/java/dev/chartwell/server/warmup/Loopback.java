package dev.chartwell.server.warmup;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/** Requests to the warm-up's own server on a loopback port, answers read as JSON. */
final class Loopback {
  private final String base;
  private final ObjectMapper mapper = new ObjectMapper();

  /**
   * @param port the port on 127.0.0.1
   */
  Loopback(int port) {
    this.base = "http://127.0.0.1:" + port;
  }

  /**
   * @param method the HTTP method
   * @param path the path
   * @param authorization the {@code Authorization} header
   * @param contentType the body's media type, or {@code null} without a body
   * @param body the body, or {@code null}
   * @return the answer
   * @throws IOException when the request fails or the answer is not a 2xx
   */
  JsonNode send(String method, String path, String authorization, String contentType, byte[] body)
      throws IOException {
    HttpURLConnection c = (HttpURLConnection) URI.create(base + path).toURL().openConnection();
    c.setRequestMethod(method);
    c.setRequestProperty("Authorization", authorization);
    c.setConnectTimeout(10_000);
    c.setReadTimeout(60_000);
    if (body != null) {
      c.setDoOutput(true);
      c.setRequestProperty("Content-Type", contentType);
      c.setFixedLengthStreamingMode(body.length);
      try (OutputStream out = c.getOutputStream()) {
        out.write(body);
      }
    }
    int status = c.getResponseCode();
    try (InputStream in = status < 300 ? c.getInputStream() : c.getErrorStream()) {
      byte[] answer = in == null ? new byte[0] : in.readAllBytes();
      if (status >= 300) {
        throw new IOException(
            method
                + " "
                + path
                + " answered "
                + status
                + ": "
                + new String(answer, StandardCharsets.UTF_8));
      }
      return answer.length == 0 ? mapper.createObjectNode() : mapper.readTree(answer);
    }
  }

  /**
   * As {@link #send} with a JSON body.
   *
   * @param method the HTTP method
   * @param path the path
   * @param authorization the {@code Authorization} header
   * @param json the body, or {@code null}
   * @return the answer
   * @throws IOException when the request fails or the answer is not a 2xx
   */
  JsonNode json(String method, String path, String authorization, String json) throws IOException {
    return send(
        method,
        path,
        authorization,
        "application/json",
        json == null ? null : json.getBytes(StandardCharsets.UTF_8));
  }
}
