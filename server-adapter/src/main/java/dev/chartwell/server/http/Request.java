package dev.chartwell.server.http;

import com.sun.net.httpserver.Headers;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** An HTTP request as handlers see it: path parameters, query, headers, principal and body. */
public final class Request {
  private final String method;
  private final String path;
  private final Map<String, String> pathParams;
  private final Map<String, String> query;
  private final Headers headers;
  private final Principal principal;
  private final InputStream body;
  private final long maxBodyBytes;

  Request(
      String method,
      URI uri,
      Map<String, String> pathParams,
      Headers headers,
      Principal principal,
      InputStream body,
      long maxBodyBytes) {
    this.method = method;
    this.path = uri.getPath();
    this.pathParams = Map.copyOf(pathParams);
    this.query = parseQuery(uri.getRawQuery());
    this.headers = headers;
    this.principal = principal;
    this.body = new LimitedInputStream(body, maxBodyBytes);
    this.maxBodyBytes = maxBodyBytes;
  }

  /**
   * @return the HTTP method
   */
  public String method() {
    return method;
  }

  /**
   * @return the decoded path
   */
  public String path() {
    return path;
  }

  /**
   * @param name a parameter of the route's path pattern
   * @return its value in this request
   */
  public String pathParam(String name) {
    String v = pathParams.get(name);
    if (v == null) {
      throw new IllegalArgumentException("route has no path parameter " + name);
    }
    return v;
  }

  /**
   * @param name a query-string parameter
   * @return its (first) value, if present
   */
  public Optional<String> queryParam(String name) {
    return Optional.ofNullable(query.get(name));
  }

  /**
   * @param name a header name, case-insensitive
   * @return its first value, if present
   */
  public Optional<String> header(String name) {
    return Optional.ofNullable(headers.getFirst(name));
  }

  /**
   * @param type the principal type the route's authenticator produces
   * @param <T> that type
   * @return the authenticated principal
   */
  public <T extends Principal> T principal(Class<T> type) {
    if (!type.isInstance(principal)) {
      throw new IllegalStateException("route is not authenticated with " + type.getSimpleName());
    }
    return type.cast(principal);
  }

  /**
   * The request body as a stream that fails with 413 beyond the route's limit. Use it to stream
   * large bodies (ingestion); use {@link #bodyBytes()} for small ones.
   *
   * @return the body stream
   */
  public InputStream bodyStream() {
    return body;
  }

  /**
   * @return the whole body (at most the route's limit)
   * @throws IOException when reading fails
   */
  public byte[] bodyBytes() throws IOException {
    return body.readAllBytes();
  }

  /**
   * @return the route's body limit in bytes
   */
  public long maxBodyBytes() {
    return maxBodyBytes;
  }

  private static Map<String, String> parseQuery(String raw) {
    Map<String, String> out = new LinkedHashMap<>();
    if (raw == null || raw.isEmpty()) {
      return out;
    }
    for (String pair : raw.split("&")) {
      if (pair.isEmpty()) {
        continue;
      }
      int eq = pair.indexOf('=');
      String k = eq < 0 ? pair : pair.substring(0, eq);
      String v = eq < 0 ? "" : pair.substring(eq + 1);
      try {
        out.putIfAbsent(
            URLDecoder.decode(k, StandardCharsets.UTF_8),
            URLDecoder.decode(v, StandardCharsets.UTF_8));
      } catch (IllegalArgumentException e) {
        throw ApiException.badRequest("malformed query string near '" + pair + "'");
      }
    }
    return out;
  }
}
