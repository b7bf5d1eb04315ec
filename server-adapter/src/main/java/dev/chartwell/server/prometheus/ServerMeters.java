package dev.chartwell.server.prometheus;

import dev.chartwell.engine.Engine;
import dev.chartwell.micrometer.ChartwellEngineMetrics;
import dev.chartwell.server.alerts.Alerts;
import dev.chartwell.server.http.ApiException;
import dev.chartwell.server.http.Authenticator;
import dev.chartwell.server.http.ErrorCode;
import dev.chartwell.server.http.PathPattern;
import dev.chartwell.server.http.Principal;
import dev.chartwell.server.http.Request;
import dev.chartwell.server.http.RequestObserver;
import dev.chartwell.server.http.Response;
import dev.chartwell.server.http.Route;
import dev.chartwell.server.http.Router;
import dev.chartwell.server.management.Accounts;
import dev.chartwell.server.management.KeyPrincipal;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The server's own figures in a Micrometer Prometheus registry, served at {@code GET /metrics} in
 * the Prometheus text format (OpenMetrics when the {@code Accept} header asks for it): HTTP
 * requests and their latency by method, route and status ({@code chartwell_http_requests_seconds}),
 * request body bytes by ingestion protocol, remote write samples, the engine's figures ({@link
 * ChartwellEngineMetrics}: events, seal backlog, memory and disk bytes, queries by outcome), alert
 * windows evaluated and webhook attempts by outcome, and the JVM's memory, GC, threads and CPU.
 * Read with an admin API key (Basic) or the {@code --metrics-token} (Bearer).
 */
public final class ServerMeters implements RequestObserver, AutoCloseable {
  private static final Map<String, String> PROTOCOLS =
      Map.of(
          "/v1/logs", "otlp",
          "/v1/traces", "otlp",
          "/v1/metrics", "otlp",
          "/api/v2/sources/{sourceId}/events", "json");

  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final JvmGcMetrics gc = new JvmGcMetrics();
  private final PromMeters remoteWrite;

  /**
   * @param engine the engine
   * @param alerts the alerts, or {@code null}
   */
  public ServerMeters(Engine engine, Alerts alerts) {
    new ChartwellEngineMetrics(engine).bindTo(registry);
    new JvmMemoryMetrics().bindTo(registry);
    gc.bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    if (alerts != null) {
      FunctionCounter.builder("chartwell.alert.evaluations", alerts, Alerts::windowsEvaluated)
          .description("alert windows evaluated")
          .register(registry);
      for (String outcome : new String[] {"delivered", "retrying", "failed"}) {
        FunctionCounter.builder(
                "chartwell.webhook.deliveries", alerts, a -> a.webhookAttempts(outcome))
            .tag("outcome", outcome)
            .description("webhook attempts by outcome")
            .register(registry);
      }
    }
    remoteWrite = new PromMeters(registry);
  }

  /**
   * @return the remote write counters
   */
  public PromMeters remoteWrite() {
    return remoteWrite;
  }

  @Override
  public void answered(String method, String route, int status, long bodyBytes, long nanos) {
    Timer.builder("chartwell.http.requests")
        .description("HTTP requests answered")
        .tag("method", method)
        .tag("route", route)
        .tag("status", Integer.toString(status))
        .register(registry)
        .record(nanos, TimeUnit.NANOSECONDS);
    String protocol = PROTOCOLS.get(route);
    if (protocol != null && bodyBytes > 0) {
      registry.counter("chartwell.ingest.bytes", "protocol", protocol).increment(bodyBytes);
    }
  }

  /**
   * Adds {@code GET /metrics}.
   *
   * @param router where
   * @param accounts the API keys (an admin key may read)
   * @param metricsToken the Bearer token that may read, if any
   * @param maxBytes the request limit
   */
  public void register(
      Router router, Accounts accounts, Optional<String> metricsToken, long maxBytes) {
    Authenticator.Basic keys = accounts.basicAuthenticator();
    Authenticator auth =
        new Authenticator.ServiceToken(
            new Authenticator.Bearer(
                (token, client) -> {
                  if (metricsToken.isPresent() && equal(token, metricsToken.get())) {
                    return (Principal) () -> "the metrics token";
                  }
                  throw new ApiException(ErrorCode.UNAUTHORIZED, "invalid metrics token");
                }),
            (id, token, client) -> {
              throw new ApiException(ErrorCode.UNAUTHORIZED, "an admin API key (Basic) is needed");
            },
            id -> false,
            keys);
    router.add(
        new Route(
            "GET",
            PathPattern.of("/metrics"),
            auth,
            maxBytes,
            Route.Body.NONE,
            req -> scrape(req)));
  }

  private Response scrape(Request req) {
    if (req.principal(Principal.class) instanceof KeyPrincipal) {
      KeyPrincipal key = KeyPrincipal.of(req);
      if (!key.key().canWrite()) {
        throw ApiException.forbidden("reading /metrics needs an admin API key");
      }
    }
    String accept = req.header("Accept").orElse("");
    boolean openMetrics = accept.contains("application/openmetrics-text");
    String type =
        openMetrics
            ? "application/openmetrics-text; version=1.0.0; charset=utf-8"
            : "text/plain; version=0.0.4; charset=utf-8";
    return Response.bytes(200, type, registry.scrape(type).getBytes(StandardCharsets.UTF_8));
  }

  private static boolean equal(String a, String b) {
    return MessageDigest.isEqual(
        a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
  }

  @Override
  public void close() {
    gc.close();
    registry.close();
  }
}
