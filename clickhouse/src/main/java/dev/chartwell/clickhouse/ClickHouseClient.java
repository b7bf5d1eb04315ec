package dev.chartwell.clickhouse;

import dev.chartwell.engine.QueryAbortedException;
import dev.chartwell.engine.QueryControl;
import java.io.IOException;
import java.net.ConnectException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;

/**
 * Runs SQL on one ClickHouse server through its HTTP interface with the JDK's client: the query in
 * the POST body, the answer as text, the user and password as HTTP Basic authentication, and the
 * connection's timeout both as the request's deadline and as ClickHouse's {@code
 * max_execution_time}, so that a slow query stops on both sides. Errors become {@link
 * ClickHouseException}s that name the connection and never hold the password, nor any text of the
 * remote server's answer: a failed answer is reported by its HTTP status and ClickHouse error code
 * (with the code's name when known), so that the client cannot be used to read back what some other
 * server answers.
 *
 * <p>The host is resolved once per request through {@link Addresses} (the server's outbound address
 * policy), which may refuse it: then nothing is sent. The request goes to the checked address
 * itself (an IP literal), so no DNS answer can change between the check and the connection, naming
 * the host in the {@code Host} header (see {@code jdk.httpclient.allowRestrictedHeaders}; without
 * it the literal is the {@code Host}, which ClickHouse ignores). Over HTTPS the TLS engine is
 * created for the host name ({@link NamedSslContext}): the server name sent (SNI) and the name the
 * certificate is verified against are the host's, not the address's. Redirects are never followed.
 *
 * <p>The official {@code com.clickhouse:client-v2} was not used: it is not available to this build
 * (offline, no such artifact in its repository) and would bring its own HTTP stack, while the plain
 * HTTP interface is what every ClickHouse version since 1.1 speaks alike.
 */
public final class ClickHouseClient {
  /** Resolves a host once and checks its addresses before anything is sent there. */
  @FunctionalInterface
  public interface Addresses {
    /**
     * @param host the connection's host name or IP literal (without brackets)
     * @return its addresses, all allowed; the first is connected to
     * @throws UnknownHostException when it does not resolve
     * @throws IOException when it is refused, its message saying why (nothing is sent)
     */
    InetAddress[] resolve(String host) throws IOException;
  }

  private static final Pattern CODE = Pattern.compile("Code: (\\d{1,6})");

  /** Names of the ClickHouse error codes a query through a connection commonly meets. */
  private static final Map<Integer, String> CODE_NAMES =
      Map.ofEntries(
          Map.entry(6, "CANNOT_PARSE_TEXT"),
          Map.entry(16, "NO_SUCH_COLUMN_IN_TABLE"),
          Map.entry(27, "CANNOT_PARSE_INPUT_ASSERTION_FAILED"),
          Map.entry(36, "BAD_ARGUMENTS"),
          Map.entry(42, "NUMBER_OF_ARGUMENTS_DOESNT_MATCH"),
          Map.entry(43, "ILLEGAL_TYPE_OF_ARGUMENT"),
          Map.entry(46, "UNKNOWN_FUNCTION"),
          Map.entry(47, "UNKNOWN_IDENTIFIER"),
          Map.entry(53, "TYPE_MISMATCH"),
          Map.entry(60, "UNKNOWN_TABLE"),
          Map.entry(62, "SYNTAX_ERROR"),
          Map.entry(81, "UNKNOWN_DATABASE"),
          Map.entry(115, "UNKNOWN_SETTING"),
          Map.entry(117, "INCORRECT_DATA"),
          Map.entry(158, "TOO_MANY_ROWS"),
          Map.entry(159, "TIMEOUT_EXCEEDED"),
          Map.entry(160, "TOO_SLOW"),
          Map.entry(164, "READONLY"),
          Map.entry(192, "UNKNOWN_USER"),
          Map.entry(193, "WRONG_PASSWORD"),
          Map.entry(194, "REQUIRED_PASSWORD"),
          Map.entry(202, "TOO_MANY_SIMULTANEOUS_QUERIES"),
          Map.entry(241, "MEMORY_LIMIT_EXCEEDED"),
          Map.entry(252, "TOO_MANY_PARTS"),
          Map.entry(394, "QUERY_WAS_CANCELLED"),
          Map.entry(497, "ACCESS_DENIED"),
          Map.entry(516, "AUTHENTICATION_FAILED"));

  private final ClickHouseConnection connection;
  private final Addresses addresses;
  private final HttpClient http;
  private final String authorization;

  /**
   * A client connecting wherever the connection's host resolves (no outbound policy).
   *
   * @param connection where and as whom
   */
  public ClickHouseClient(ClickHouseConnection connection) {
    this(connection, InetAddress::getAllByName);
  }

  /**
   * @param connection where and as whom
   * @param addresses resolves and checks the host at each request
   */
  public ClickHouseClient(ClickHouseConnection connection, Addresses addresses) {
    this(connection, addresses, null);
  }

  /**
   * @param connection where and as whom
   * @param addresses resolves and checks the host at each request
   * @param tls the TLS context whose trust decides on certificates, {@code null} for the JDK's
   *     default (tests give one trusting their own certificate)
   */
  ClickHouseClient(ClickHouseConnection connection, Addresses addresses, SSLContext tls) {
    this.connection = connection;
    this.addresses = addresses;
    HttpClient.Builder b =
        HttpClient.newBuilder()
            .connectTimeout(min(connection.timeout(), Duration.ofSeconds(10)))
            .followRedirects(HttpClient.Redirect.NEVER);
    String host = connection.url().getHost();
    if ("https".equalsIgnoreCase(connection.url().getScheme())
        && host != null
        && !host.startsWith("[")
        && !host.matches("[0-9.]+")) {
      try {
        b.sslContext(
            NamedSslContext.of(
                tls == null ? SSLContext.getDefault() : tls, host.toLowerCase(Locale.ROOT)));
      } catch (NoSuchAlgorithmException e) {
        throw new IllegalStateException("the JDK has no default TLS context", e);
      }
    }
    this.http = b.build();
    this.authorization =
        "Basic "
            + Base64.getEncoder()
                .encodeToString(
                    (connection.user() + ":" + connection.password())
                        .getBytes(StandardCharsets.UTF_8));
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) < 0 ? a : b;
  }

  /**
   * @return the connection
   */
  public ClickHouseConnection connection() {
    return connection;
  }

  /**
   * Runs a query and returns its whole answer.
   *
   * @param sql the statement (with its {@code FORMAT} when it returns rows)
   * @param control cancels it (may be {@code null})
   * @return the answer's body
   * @throws ClickHouseException when there is no answer (unreachable, refused, rejected, timeout)
   * @throws QueryAbortedException when the control cancelled it
   */
  public String query(String sql, QueryControl control) {
    return send("", HttpRequest.BodyPublishers.ofString(sql, StandardCharsets.UTF_8), control, sql);
  }

  /**
   * Sends the data of an {@code INSERT}.
   *
   * @param insert the statement, ending with its {@code FORMAT}
   * @param data the rows in that format
   * @throws ClickHouseException when the insert failed
   */
  public void insert(String insert, byte[] data) {
    send(
        "query=" + URLEncoder.encode(insert, StandardCharsets.UTF_8) + "&",
        HttpRequest.BodyPublishers.ofByteArray(data),
        null,
        insert);
  }

  private String send(
      String params, HttpRequest.BodyPublisher body, QueryControl control, String sql) {
    long seconds = Math.max(1, (connection.timeout().toMillis() + 999) / 1000);
    String query = "/?" + params + "max_execution_time=" + seconds;
    URI url = connection.url();
    String host = url.getHost();
    String bare = host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
    InetAddress target;
    try {
      target = addresses.resolve(bare)[0];
    } catch (UnknownHostException e) {
      throw error(ClickHouseException.Kind.UNREACHABLE, "cannot resolve " + bare);
    } catch (IOException e) {
      throw error(ClickHouseException.Kind.REFUSED, e.getMessage());
    }
    boolean tls = "https".equalsIgnoreCase(url.getScheme());
    int port = url.getPort() >= 0 ? url.getPort() : tls ? 443 : 80;
    HttpRequest.Builder builder =
        HttpRequest.newBuilder(
            URI.create((tls ? "https://" : "http://") + literal(target) + ":" + port + query));
    try {
      builder.header("Host", host + (url.getPort() >= 0 ? ":" + url.getPort() : ""));
    } catch (IllegalArgumentException restricted) {
      // jdk.httpclient.allowRestrictedHeaders lacks host: the address is the Host
    }
    HttpRequest request =
        builder
            .timeout(connection.timeout())
            .header("Authorization", authorization)
            .header("Content-Type", "text/plain; charset=utf-8")
            .POST(body)
            .build();
    CompletableFuture<HttpResponse<String>> future =
        http.sendAsync(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    HttpResponse<String> response;
    try {
      response = await(future, control);
    } catch (ExecutionException e) {
      throw failure(e.getCause());
    } catch (InterruptedException e) {
      future.cancel(true);
      Thread.currentThread().interrupt();
      throw new QueryAbortedException(
          QueryAbortedException.Reason.CANCELLED, "the query was interrupted");
    }
    if (response.statusCode() != 200) {
      throw rejected(response);
    }
    return response.body();
  }

  private static HttpResponse<String> await(
      CompletableFuture<HttpResponse<String>> future, QueryControl control)
      throws ExecutionException, InterruptedException {
    while (true) {
      try {
        return future.get(50, TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        if (control != null && control.isAborted()) {
          future.cancel(true);
          control.checkpoint(); // throws the control's reason
        }
      }
    }
  }

  private ClickHouseException failure(Throwable cause) {
    if (cause instanceof HttpConnectTimeoutException) {
      return error(
          ClickHouseException.Kind.UNREACHABLE, "cannot connect (no answer to the connection)");
    }
    if (cause instanceof HttpTimeoutException) {
      return error(
          ClickHouseException.Kind.TIMEOUT,
          "no answer within the connection's timeout of " + describe(connection.timeout()));
    }
    if (cause instanceof ConnectException) {
      return error(ClickHouseException.Kind.UNREACHABLE, "cannot connect (connection refused)");
    }
    String what = cause == null ? "unknown error" : cause.getClass().getSimpleName();
    // Only TLS failures keep their message (the JDK's words about the certificate); others can
    // quote what the remote end sent (an invalid status line is quoted whole), and nothing of that
    // comes back to the caller.
    String message =
        cause instanceof javax.net.ssl.SSLException && cause.getMessage() != null
            ? ": " + cause.getMessage()
            : "";
    if (cause instanceof IOException) {
      return error(
          ClickHouseException.Kind.UNREACHABLE, "cannot reach the server (" + what + message + ")");
    }
    return error(ClickHouseException.Kind.UNREACHABLE, "request failed (" + what + message + ")");
  }

  /** The address as a URL's host: IPv6 in brackets, without a scope. */
  private static String literal(InetAddress a) {
    try {
      InetAddress plain = InetAddress.getByAddress(a.getAddress());
      return plain instanceof Inet6Address
          ? "[" + plain.getHostAddress() + "]"
          : plain.getHostAddress();
    } catch (UnknownHostException e) {
      throw new IllegalStateException(e); // 4 or 16 bytes are always an address
    }
  }

  /**
   * The error of a failed answer: its status and ClickHouse error code (from {@code
   * X-ClickHouse-Exception-Code} or the body's {@code Code: NNN}), never the body's text.
   */
  private ClickHouseException rejected(HttpResponse<String> response) {
    int status = response.statusCode();
    int code =
        response
            .headers()
            .firstValue("X-ClickHouse-Exception-Code")
            .filter(v -> v.strip().matches("\\d{1,6}"))
            .map(v -> Integer.parseInt(v.strip()))
            .orElse(-1);
    if (code < 0 && response.body() != null) {
      Matcher m = CODE.matcher(response.body());
      if (m.find()) {
        code = Integer.parseInt(m.group(1));
      }
    }
    String what =
        "HTTP "
            + status
            + (code < 0
                ? ""
                : ", ClickHouse error code "
                    + code
                    + (CODE_NAMES.containsKey(code) ? " " + CODE_NAMES.get(code) : ""));
    if (status >= 300 && status < 400) {
      return error(
          ClickHouseException.Kind.REJECTED,
          "the server answered HTTP " + status + " (a redirect); redirects are not followed");
    }
    if (code == 192 || code == 193 || code == 194 || code == 516 || status == 401) {
      return error(
          ClickHouseException.Kind.AUTHENTICATION,
          "ClickHouse refused user '" + connection.user() + "' (" + what + ")");
    }
    if (code == 159 || code == 160 || code == 394) {
      return error(
          ClickHouseException.Kind.TIMEOUT,
          "the query ran past the connection's timeout of "
              + describe(connection.timeout())
              + " ("
              + what
              + ")");
    }
    return error(ClickHouseException.Kind.REJECTED, "ClickHouse rejected the query (" + what + ")");
  }

  private ClickHouseException error(ClickHouseException.Kind kind, String why) {
    String message = "connection '" + connection.name() + "' (" + hostOf() + "): " + why;
    if (!connection.password().isEmpty()) {
      message = message.replace(connection.password(), "***");
    }
    return new ClickHouseException(kind, message);
  }

  private String hostOf() {
    URI u = connection.url();
    return u.getScheme() + "://" + u.getHost() + (u.getPort() >= 0 ? ":" + u.getPort() : "");
  }

  private static String describe(Duration d) {
    long ms = d.toMillis();
    return ms % 1000 == 0 ? (ms / 1000) + " s" : String.format(Locale.ROOT, "%.1f s", ms / 1000.0);
  }
}
