package dev.chartwell.server.http;

import java.io.IOException;
import java.io.PrintStream;
import java.net.BindException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collection;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.jetty.http.HttpParser;
import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.io.ssl.SslConnection;
import org.eclipse.jetty.server.DetectorConnectionFactory;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.NetworkConnectionLimit;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.eclipse.jetty.server.internal.HttpConnection;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.NanoTime;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The HTTP front: Jetty (its core API, no servlets) on a bounded worker pool, dispatching through a
 * {@link Router}. It owns the cross-cutting rules of every response: the request id (header {@code
 * X-Request-Id} and envelope field), authentication before the handler, body rules (type, encoding,
 * limits) and the error envelope, also for requests Jetty refuses before any route sees them.
 *
 * <p>Clients are bounded in time and number: a request's line and headers must arrive within the
 * header timeout, a body may stall for at most the body timeout, an idle connection is closed after
 * the idle timeout, and at most {@code maxConnections} connections are open (more wait in the
 * accept queue). Only a handler reading a body holds a worker while the client sends it, and at
 * most half the workers may do so at once.
 *
 * <p>Use: {@link #bind} first (the port is taken, nothing is served yet), then {@link
 * #start(Router)}, and {@link #stop} at the end.
 */
public final class ApiServer implements AutoCloseable {
  /** Jetty reports its start and stop at INFO through SLF4J; only its warnings matter here. */
  private static final Logger JETTY_LOG = Logger.getLogger("org.eclipse.jetty");

  private final Server server;
  private final ServerConnector connector;
  private final Options options;
  private final Json json;
  private final PrintStream log;
  private final String address;
  private final Tls tls; // null for plain HTTP
  private volatile boolean sweeping;
  private volatile GracefulHandler graceful; // once started
  private volatile Dispatcher dispatcher; // once started

  /**
   * Limits of the HTTP front.
   *
   * @param idleTimeout a connection without traffic (between requests, or a stalled response write)
   *     is closed after this long
   * @param headerTimeout the request line and headers must arrive within this long of their first
   *     byte (408 and close otherwise)
   * @param bodyTimeout the longest pause while a request body arrives (408 and close otherwise)
   * @param maxConnections open connections; further clients wait in the accept queue
   * @param maxThreads worker threads, at least 8 (Jetty's acceptor and selector use two)
   * @param maxHeaderBytes the largest request line plus headers (414 or 431 beyond)
   */
  public record Options(
      Duration idleTimeout,
      Duration headerTimeout,
      Duration bodyTimeout,
      int maxConnections,
      int maxThreads,
      int maxHeaderBytes) {

    /** Checks the values. */
    public Options {
      for (Duration d : new Duration[] {idleTimeout, headerTimeout, bodyTimeout}) {
        if (d.isNegative() || d.isZero()) {
          throw new IllegalArgumentException("timeouts must be positive: " + d);
        }
      }
      if (maxConnections < 1 || maxThreads < 8 || maxHeaderBytes < 1024) {
        throw new IllegalArgumentException(
            "need maxConnections >= 1, maxThreads >= 8, maxHeaderBytes >= 1024");
      }
    }

    /**
     * @return 30 s idle, 10 s header and body timeouts, 1000 connections, 200 threads, 16 KiB of
     *     request line and headers
     */
    public static Options defaults() {
      return new Options(
          Duration.ofSeconds(30), Duration.ofSeconds(10), Duration.ofSeconds(10), 1000, 200, 16384);
    }
  }

  private ApiServer(
      Server server,
      ServerConnector connector,
      Options options,
      Json json,
      PrintStream log,
      String address,
      Tls tls) {
    this.server = server;
    this.tls = tls;
    this.connector = connector;
    this.options = options;
    this.json = json;
    this.log = log;
    this.address = address;
  }

  /**
   * Takes the port without serving anything yet: connections wait in the accept queue until {@link
   * #start(Router)}.
   *
   * @param host bind address
   * @param port port, 0 for any free port
   * @param options limits and timeouts
   * @param json the JSON codec
   * @param log where unexpected failures are logged (with their request id)
   * @return the bound, not yet serving server
   * @throws IOException when the address cannot be bound; a taken port is named as such
   */
  public static ApiServer bind(String host, int port, Options options, Json json, PrintStream log)
      throws IOException {
    return bind(host, port, options, json, log, null);
  }

  /**
   * Takes the port, serving HTTPS when {@code tls} is given: TLS 1.2 or 1.3 with its certificate; a
   * request in plain HTTP is answered 400 with the https URL to use, and the connection closed.
   *
   * @param host bind address
   * @param port port, 0 for any free port
   * @param options limits and timeouts
   * @param json the JSON codec
   * @param log where unexpected failures are logged (with their request id)
   * @param tls the certificate, or {@code null} for plain HTTP
   * @return the bound, not yet serving server
   * @throws IOException when the address cannot be bound; a taken port is named as such
   */
  public static ApiServer bind(
      String host, int port, Options options, Json json, PrintStream log, Tls tls)
      throws IOException {
    if (JETTY_LOG.getLevel() == null) {
      JETTY_LOG.setLevel(Level.WARNING);
    }
    // The number of threads is bounded; the job queue is not (Jetty's own tasks must never be
    // refused), but HTTP/1.1 serves one request per connection at a time, so queued requests are
    // bounded by maxConnections.
    QueuedThreadPool pool =
        new QueuedThreadPool(options.maxThreads(), Math.min(8, options.maxThreads()), 60_000);
    pool.setName("chartwell-http");
    pool.setDaemon(true);
    pool.setStopTimeout(1000);
    Server server = new Server(pool);
    server.setStopAtShutdown(false);

    HttpConfiguration config = new HttpConfiguration();
    config.setRequestHeaderSize(options.maxHeaderBytes());
    config.setSendServerVersion(false);
    config.setSendXPoweredBy(false);
    config.setUriCompliance(UriCompliance.DEFAULT);
    ServerConnector connector;
    if (tls == null) {
      connector = new ServerConnector(server, new HttpConnectionFactory(config));
    } else {
      // Marks requests that came over TLS secure (Request.isSecure(), scheme https). One
      // certificate, no virtual hosts: a Host that the certificate does not name is the
      // client's concern, not a reason to refuse the request.
      SecureRequestCustomizer secure = new SecureRequestCustomizer();
      secure.setSniHostCheck(false);
      secure.setSniRequired(false);
      secure.setStsMaxAge(-1); // HSTS is the web UI's own decision (SecurityHeaders)
      config.addCustomizer(secure);
      HttpConnectionFactory http = new HttpConnectionFactory(config);
      SslConnectionFactory ssl = new SslConnectionFactory(tls.factory(), http.getProtocol());
      // A TLS handshake goes to TLS; anything else (plain HTTP) to the HTTP parser, where
      // PlainHttpRefusal answers it in our words.
      connector = new ServerConnector(server, new DetectorConnectionFactory(ssl), http);
    }
    connector.setHost(host);
    connector.setPort(port);
    connector.setIdleTimeout(options.idleTimeout().toMillis());
    connector.setAcceptQueueSize(256);
    connector.setAcceptedTcpNoDelay(true);
    server.addConnector(connector);
    server.addBean(new NetworkConnectionLimit(options.maxConnections(), connector));

    String address = host.contains(":") ? "[" + host + "]" : host;
    try {
      connector.open();
    } catch (IOException e) {
      for (Throwable t = e; t != null; t = t.getCause()) {
        if (t instanceof BindException b
            && String.valueOf(b.getMessage())
                .toLowerCase(java.util.Locale.ROOT)
                .contains("in use")) {
          throw new IOException("port " + port + " on " + address + " is already in use", e);
        }
      }
      throw new IOException("cannot listen on " + address + ":" + port + ": " + e.getMessage(), e);
    }
    return new ApiServer(server, connector, options, json, log, address, tls);
  }

  /**
   * Starts serving the routes.
   *
   * @param router the routes
   * @throws IOException when the server cannot start
   */
  public void start(Router router) throws IOException {
    start(router, FailedAuthLimiter.NONE);
  }

  /**
   * Starts serving, with failed authentication rate limited.
   *
   * @param router the routes
   * @param limiter counts failed authentication; one limiter shared by every port of a server
   * @throws IOException when the server cannot start
   */
  public void start(Router router, FailedAuthLimiter limiter) throws IOException {
    dispatcher = new Dispatcher(router, json, log, options, limiter);
    graceful =
        new GracefulHandler(
            tls == null ? dispatcher : new PlainHttpRefusal(dispatcher, json, this::port));
    server.setHandler(graceful);
    server.setErrorHandler(new JsonErrorHandler(json.mapper(), log, options.maxHeaderBytes()));
    try {
      server.start();
    } catch (Exception e) {
      throw new IOException("cannot start serving on " + address + ": " + e.getMessage(), e);
    }
    sweeping = true;
    scheduleSweep();
  }

  /**
   * @return whether this port serves HTTPS
   */
  public boolean secure() {
    return tls != null;
  }

  /**
   * @return the bound port (useful when bound to port 0)
   */
  public int port() {
    return connector.getLocalPort();
  }

  /**
   * @return the requests being handled now (0 before {@link #start}); for tests that wait for a
   *     state
   */
  long requestsInFlight() {
    GracefulHandler g = graceful;
    return g == null ? 0 : g.getCurrentRequestCount();
  }

  /**
   * @return the request bodies being read by handlers now, each holding a body permit
   */
  int bodiesBeingRead() {
    Dispatcher d = dispatcher;
    return d == null ? 0 : d.bodiesBeingRead();
  }

  /**
   * @return whether {@link #stop} has begun: new requests are refused with 503 from now on
   */
  boolean refusingRequests() {
    GracefulHandler g = graceful;
    return g != null && g.isShutdown();
  }

  /**
   * @return the end points of the open connections
   */
  Collection<EndPoint> connections() {
    return connector.getConnectedEndPoints();
  }

  /**
   * Stops accepting connections, lets in-flight requests finish and closes every connection. The
   * whole stop takes at most {@code seconds} (in-flight requests get all but the last second),
   * however the clients behave.
   *
   * @param seconds the longest the stop may take, at least 1
   */
  public void stop(int seconds) {
    sweeping = false;
    Dispatcher d = dispatcher;
    if (d != null) {
      d.stopStreams(); // their producers end them, so that the graceful stop need not wait
    }
    server.setStopTimeout(Math.max(0, TimeUnit.SECONDS.toMillis(seconds) - 1000));
    try {
      server.stop();
    } catch (Exception e) {
      log.println("HTTP server stop: " + e);
    }
    connector.close();
  }

  @Override
  public void close() {
    stop(5);
  }

  /** Formats a timeout for error texts: "10 s" or "250 ms". */
  static String text(Duration d) {
    return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
  }

  private void scheduleSweep() {
    long every = Math.max(100, Math.min(1000, options.headerTimeout().toMillis() / 4));
    server.getScheduler().schedule(this::sweep, every, TimeUnit.MILLISECONDS);
  }

  /**
   * Closes connections whose request line and headers have been arriving for longer than the header
   * timeout (a client trickling bytes is never idle). Such a client is still parsing, so nothing
   * else writes to its connection: it gets a 408 envelope, then the connection closes.
   */
  private void sweep() {
    if (!sweeping) {
      return;
    }
    try {
      long now = NanoTime.now();
      long limit = options.headerTimeout().toMillis();
      for (EndPoint connected : connector.getConnectedEndPoints()) {
        // Over TLS, the HTTP connection is on the decrypted side of the TLS connection.
        EndPoint endPoint =
            connected.getConnection() instanceof SslConnection ssl
                ? ssl.getSslEndPoint()
                : connected;
        if (endPoint.getConnection() instanceof HttpConnection http) {
          HttpParser parser = http.getParser();
          if (!parser.isStart()
              && parser.inHeaderState()
              && NanoTime.millisElapsed(parser.getBeginNanoTime(), now) > limit) {
            timeOut(endPoint);
          }
        }
      }
    } catch (RuntimeException e) {
      log.println("header timeout sweep failed: " + e);
    } finally {
      if (sweeping && server.isRunning()) {
        scheduleSweep();
      }
    }
  }

  private void timeOut(EndPoint endPoint) {
    String requestId = UUID.randomUUID().toString();
    byte[] body =
        JsonErrorHandler.envelope(
            json.mapper(),
            408,
            ErrorCode.REQUEST_TIMEOUT,
            "the request line and headers did not arrive within " + text(options.headerTimeout()),
            requestId);
    String head =
        "HTTP/1.1 408 Request Timeout\r\n"
            + "Content-Type: "
            + JsonErrorHandler.JSON_TYPE
            + "\r\nX-Request-Id: "
            + requestId
            + "\r\nContent-Length: "
            + body.length
            + "\r\nConnection: close\r\n\r\n";
    try {
      endPoint.write(
          Callback.from(() -> endPoint.close(), x -> endPoint.close()),
          ByteBuffer.wrap(head.getBytes(StandardCharsets.US_ASCII)),
          ByteBuffer.wrap(body));
    } catch (RuntimeException e) {
      endPoint.close();
    }
  }
}
