package dev.chartwell.server.http;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.eclipse.jetty.http.HttpFields;

/**
 * An HTTP request as handlers see it: path parameters, query, headers, principal and body, and a
 * way to learn that the client went away.
 */
public final class Request {
  private final String method;
  private final String path;
  private final Map<String, String> pathParams;
  private final Map<String, List<String>> query;
  private final HttpFields headers;
  private final InetAddress remoteAddress;
  private final boolean secure;
  private final String host;
  private final Principal principal;
  private final InputStream body;
  private final long maxBodyBytes;
  private final ClientWatch watch;
  private final ServerTiming timing;

  Request(
      String method,
      String path,
      String rawQuery,
      Map<String, String> pathParams,
      HttpFields headers,
      InetAddress remoteAddress,
      boolean secure,
      String host,
      Principal principal,
      InputStream body,
      long maxBodyBytes,
      ClientWatch watch,
      ServerTiming timing) {
    this.method = method;
    this.path = path;
    this.pathParams = Map.copyOf(pathParams);
    this.query = parseQuery(rawQuery);
    this.headers = headers;
    this.remoteAddress = remoteAddress;
    this.secure = secure;
    this.host = host;
    this.principal = principal;
    this.body = body;
    this.maxBodyBytes = maxBodyBytes;
    this.watch = watch;
    this.timing = timing;
  }

  private Request(Request r, Principal principal) {
    this.method = r.method;
    this.path = r.path;
    this.pathParams = r.pathParams;
    this.query = r.query;
    this.headers = r.headers;
    this.remoteAddress = r.remoteAddress;
    this.secure = r.secure;
    this.host = r.host;
    this.principal = principal;
    this.body = r.body;
    this.maxBodyBytes = r.maxBodyBytes;
    this.watch = r.watch;
    this.timing = r.timing;
  }

  /**
   * The same request (same body stream, same client watch) with another principal: a route that
   * accepts several kinds of credentials narrows what it authenticated to what its handler reads
   * (an organization's API key and the service it names, to that service).
   *
   * @param other the principal the handler sees
   * @return the request with that principal
   */
  public Request withPrincipal(Principal other) {
    return new Request(this, other);
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
    return queryParams(name).stream().findFirst();
  }

  /**
   * @param name a query-string parameter that may repeat ({@code ?filter=a&filter=b})
   * @return its values in order, empty when absent
   */
  public List<String> queryParams(String name) {
    return query.getOrDefault(name, List.of());
  }

  /**
   * @return the client's IP address, or {@code null} when the connection has none (not TCP)
   */
  public InetAddress remoteAddress() {
    return remoteAddress;
  }

  /**
   * @return whether the request arrived over TLS
   */
  public boolean secure() {
    return secure;
  }

  /**
   * @return the host the client sent the request to (its {@code Host} header or HTTP/2 authority,
   *     without the port), or {@code null} when it named none
   */
  public String host() {
    return host;
  }

  /**
   * @param name a header name, case-insensitive
   * @return its first value, if present
   */
  public Optional<String> header(String name) {
    return Optional.ofNullable(headers.get(name));
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
   * Registers an action to run, once and on some other thread, if the client's connection closes or
   * fails while the handler still runs, for example to cancel a long query. The connection is
   * watched only once the request body has been read to its end (at once for a request without a
   * body), and no longer once the handler has returned. An action registered after the client is
   * known to be gone runs at once on the calling thread. A client that half-closes its side of the
   * connection after sending the request counts as gone.
   *
   * @param action what to do; it should be quick and must not block
   */
  public void onClientDisconnect(Runnable action) {
    watch.add(action);
  }

  /**
   * @return whether the client watch has consumed bytes the client sent while this request was
   *     handled (a pipelined request; the connection closes after the response)
   */
  boolean watchConsumedBytes() {
    return watch.consumedBytes();
  }

  /**
   * Reports a duration in the response's {@code Server-Timing} header (before {@code write} and
   * {@code total}, which the server adds).
   *
   * @param metric its name: letters, digits, {@code -} and {@code _}
   * @param nanos how long it took
   */
  public void serverTiming(String metric, long nanos) {
    timing.add(metric, nanos);
  }

  /**
   * The request body as a stream that fails with 413 beyond the route's limit (before and after
   * gzip decoding), with 408 when the client stalls and with 400 when the body is truncated or its
   * gzip encoding is malformed. Use it to stream large bodies (ingestion); use {@link #bodyBytes()}
   * for small ones.
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

  private static Map<String, List<String>> parseQuery(String raw) {
    Map<String, List<String>> out = new LinkedHashMap<>();
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
        out.computeIfAbsent(URLDecoder.decode(k, StandardCharsets.UTF_8), x -> new ArrayList<>())
            .add(URLDecoder.decode(v, StandardCharsets.UTF_8));
      } catch (IllegalArgumentException e) {
        throw ApiException.badRequest("malformed query string near '" + pair + "'");
      }
    }
    return out;
  }
}
