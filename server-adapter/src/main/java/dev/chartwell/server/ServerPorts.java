package dev.chartwell.server;

import dev.chartwell.server.http.ApiServer;
import dev.chartwell.server.http.FailedAuthLimiter;
import dev.chartwell.server.http.Json;
import dev.chartwell.server.http.Tls;
import java.io.IOException;
import java.io.PrintStream;
import java.util.OptionalInt;

/**
 * The ports a {@link ChartwellServer} listens on: the API's, and the OTLP/HTTP and Elasticsearch
 * API ports when they are given. They are bound before anything else is opened (a server that
 * cannot listen must not touch the data directory), start serving once the routes are ready, and
 * stop together.
 */
final class ServerPorts {
  private final ApiServer api;
  private final ApiServer otlp; // null without --otlp-port
  private final ApiServer elastic; // null without --elasticsearch-port

  private ServerPorts(ApiServer api, ApiServer otlp, ApiServer elastic) {
    this.api = api;
    this.otlp = otlp;
    this.elastic = elastic;
  }

  /**
   * Binds every port the configuration names; when one cannot be bound, those bound already are let
   * go.
   *
   * @param config the configuration
   * @param json JSON codec
   * @param log where unexpected request failures are logged
   * @param tls the certificate, or {@code null} for plain HTTP
   * @return the bound ports, not yet serving
   * @throws IOException when a port cannot be bound
   */
  static ServerPorts bind(ServerConfig config, Json json, PrintStream log, Tls tls)
      throws IOException {
    ApiServer api = ApiServer.bind(config.host(), config.port(), config.http(), json, log, tls);
    ApiServer otlp = null;
    ApiServer elastic = null;
    try {
      if (config.otlpPort().isPresent()) {
        otlp =
            ApiServer.bind(
                config.host(), config.otlpPort().getAsInt(), config.http(), json, log, tls);
      }
      if (config.elasticsearchPort().isPresent()) {
        elastic =
            ApiServer.bind(
                config.host(),
                config.elasticsearchPort().getAsInt(),
                config.http(),
                json,
                log,
                tls);
      }
    } catch (IOException | RuntimeException e) {
      new ServerPorts(api, otlp, elastic).stopNow();
      throw e;
    }
    return new ServerPorts(api, otlp, elastic);
  }

  /**
   * Starts serving: the whole API on its port, and on each other port the routes it serves.
   *
   * @param routes the server's routes
   * @param limiter one for every port: failures on one count on the others
   * @throws IOException when a port cannot start serving
   */
  void start(ServerRoutes routes, FailedAuthLimiter limiter) throws IOException {
    api.start(routes.router(), limiter);
    if (otlp != null) {
      otlp.start(routes.otlpOnly(), limiter);
    }
    if (elastic != null) {
      elastic.start(routes.elasticsearchOnly(), limiter);
    }
  }

  /**
   * @return the bound API port
   */
  int port() {
    return api.port();
  }

  /**
   * @return the bound OTLP/HTTP port, when {@code --otlp-port} was given
   */
  OptionalInt otlpPort() {
    return otlp == null ? OptionalInt.empty() : OptionalInt.of(otlp.port());
  }

  /**
   * @return the bound Elasticsearch API port, when {@code --elasticsearch-port} was given
   */
  OptionalInt elasticsearchPort() {
    return elastic == null ? OptionalInt.empty() : OptionalInt.of(elastic.port());
  }

  /** Stops every port at once, giving requests in flight a second (a start that failed). */
  void stopNow() {
    for (ApiServer port : new ApiServer[] {api, otlp, elastic}) {
      if (port != null) {
        port.stop(1);
      }
    }
  }

  /**
   * Stops every port gracefully: no new connections, requests in flight finish. The ports stop at
   * once, so that the whole stop still takes at most 10 seconds.
   */
  void stop() {
    Thread otlpStop =
        otlp == null && elastic == null
            ? null
            : new Thread(
                () -> {
                  if (otlp != null) {
                    otlp.stop(10);
                  }
                  if (elastic != null) {
                    elastic.stop(10);
                  }
                },
                "second-ports-stop");
    if (otlpStop != null) {
      otlpStop.start();
    }
    api.stop(10);
    if (otlpStop != null) {
      try {
        otlpStop.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
