package dev.chartwell.clickhouse;

import dev.chartwell.engine.QueryAbortedException;
import dev.chartwell.engine.QueryControl;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs SQL on one ClickHouse server through its HTTP interface with the JDK's client: the query in
 * the POST body, the answer as text, the user and password as HTTP Basic authentication, and the
 * connection's timeout both as the request's deadline and as ClickHouse's {@code
 * max_execution_time}, so that a slow query stops on both sides. Errors become {@link
 * ClickHouseException}s that name the connection and never hold the password.
 *
 * <p>The official {@code com.clickhouse:client-v2} was not used: it is not available to this build
 * (offline, no such artifact in its repository) and would bring its own HTTP stack, while the plain
 * HTTP interface is what every ClickHouse version since 1.1 speaks alike.
 */
public final class ClickHouseClient {
  private static final Pattern CODE = Pattern.compile("Code: (\\d+)");
  private static final Pattern EXCEPTION =
      Pattern.compile("DB::Exception: (.*?)(, e\\.what\\(\\)|$)");
  private static final int MAX_CAUSE = 400;

  private final ClickHouseConnection connection;
  private final HttpClient http;
  private final String authorization;

  /**
   * @param connection where and as whom
   */
  public ClickHouseClient(ClickHouseConnection connection) {
    this.connection = connection;
    this.http =
        HttpClient.newBuilder()
            .connectTimeout(min(connection.timeout(), Duration.ofSeconds(10)))
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();
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
    URI uri = connection.url().resolve("/?" + params + "max_execution_time=" + seconds);
    HttpRequest request =
        HttpRequest.newBuilder(uri)
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
      throw rejected(response.statusCode(), response.body());
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
    String message = cause == null || cause.getMessage() == null ? "" : ": " + cause.getMessage();
    if (cause instanceof IOException) {
      return error(
          ClickHouseException.Kind.UNREACHABLE, "cannot reach the server (" + what + message + ")");
    }
    return error(ClickHouseException.Kind.UNREACHABLE, "request failed (" + what + message + ")");
  }

  private ClickHouseException rejected(int status, String body) {
    int code = -1;
    Matcher m = CODE.matcher(body);
    if (m.find()) {
      code = Integer.parseInt(m.group(1));
    }
    String cause = body.strip();
    Matcher e = EXCEPTION.matcher(cause);
    if (e.find()) {
      cause = e.group(1).strip();
    }
    int nl = cause.indexOf('\n');
    if (nl >= 0) {
      cause = cause.substring(0, nl);
    }
    if (cause.length() > MAX_CAUSE) {
      cause = cause.substring(0, MAX_CAUSE) + "...";
    }
    if (code == 192 || code == 193 || code == 194 || code == 516 || status == 401) {
      return error(
          ClickHouseException.Kind.AUTHENTICATION,
          "ClickHouse refused user '" + connection.user() + "' (" + cause + ")");
    }
    if (code == 159 || code == 160 || code == 394) {
      return error(
          ClickHouseException.Kind.TIMEOUT,
          "the query ran past the connection's timeout of "
              + describe(connection.timeout())
              + " ("
              + cause
              + ")");
    }
    return error(
        ClickHouseException.Kind.REJECTED,
        "ClickHouse rejected the query (HTTP "
            + status
            + (code >= 0 ? ", code " + code : "")
            + ": "
            + cause
            + ")");
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
