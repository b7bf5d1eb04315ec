package dev.chartwell.server.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Semaphore;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.util.Callback;

/**
 * Serves one request on a worker thread: request id, route, authentication, body rules, the
 * handler, and the response or error envelope. A handler answering {@link Response#later} lets the
 * worker go; its response is written by the thread that completes it. No error response ever
 * carries a stack trace or class name.
 */
final class Dispatcher extends Handler.Abstract {
  /**
   * The most bytes of a body left unread by its handler (a request refused before its body: 401,
   * 413, 429, ...) that are read and dropped after the answer is written and before the connection
   * closes, so that a client still sending the body reads the answer instead of a connection reset.
   */
  static final long DRAIN_LIMIT = 1 << 20;

  private final Router router;
  private final Json json;
  private final PrintStream log;
  private final ApiServer.Options options;
  private final int bodyPermits;
  private final Semaphore bodyReaders;

  private final FatalErrors fatal;
  private final java.util.Set<OpenStream> streams =
      java.util.concurrent.ConcurrentHashMap.newKeySet();
  private final FailedAuthLimiter limiter;

  Dispatcher(
      Router router,
      Json json,
      PrintStream log,
      ApiServer.Options options,
      FailedAuthLimiter limiter) {
    this.router = router;
    this.limiter = limiter;
    this.json = json;
    this.log = log;
    this.options = options;
    this.fatal = new FatalErrors(log);
    // Blocking body reads hold a worker each; at most half the workers may wait on clients, so
    // that slow uploads never take the threads other requests (and /health) need.
    this.bodyPermits = Math.max(1, options.maxThreads() / 2);
    this.bodyReaders = new Semaphore(bodyPermits);
  }

  /**
   * @return the request bodies being read now (body permits taken)
   */
  int bodiesBeingRead() {
    return bodyPermits - bodyReaders.availablePermits();
  }

  @Override
  public boolean handle(
      org.eclipse.jetty.server.Request request,
      org.eclipse.jetty.server.Response response,
      Callback callback) {
    ServerTiming timing = new ServerTiming(System.nanoTime());
    String requestId = UUID.randomUUID().toString();
    response.getHeaders().put("X-Request-Id", requestId);
    // A handler busy without I/O (a long query) is not idle; stalled reads and writes still time
    // out through their own pending operation.
    request.addIdleTimeoutListener(t -> false);
    Exchange exchange = new Exchange(request);
    Response r;
    try {
      r = dispatch(request, exchange, timing);
    } catch (RuntimeException | IOException | StackOverflowError e) {
      answer(request, response, callback, exchange, timing, requestId, null, e);
      return true;
    } catch (Error e) {
      // Out of memory: one line and exit (FatalErrors); any other error is Jetty's 500.
      fatal.haltIfFatal(e, requestId);
      exchange.finish(); // the permit and the watch go back even now; Jetty answers 500
      throw e;
    }
    if (r.body() instanceof Response.Later later) {
      // The worker goes back to the pool now; the response is written when the answer comes.
      later
          .answer()
          .whenComplete(
              (done, failed) ->
                  answer(request, response, callback, exchange, timing, requestId, done, failed));
      return true;
    }
    if (r.body() instanceof Response.Stream stream) {
      stream(request, response, callback, exchange, timing, stream, r.headers());
      return true;
    }
    answer(request, response, callback, exchange, timing, requestId, r, null);
    return true;
  }

  /**
   * Ends every open stream (the server stops): their producers are told to write their last chunk.
   */
  void stopStreams() {
    streams.forEach(OpenStream::serverStopping);
  }

  /** Starts a streamed response: headers now, chunks as its producer writes them. */
  private void stream(
      org.eclipse.jetty.server.Request request,
      org.eclipse.jetty.server.Response response,
      Callback callback,
      Exchange exchange,
      ServerTiming timing,
      Response.Stream stream,
      Map<String, String> headers) {
    HttpFields.Mutable out = response.getHeaders();
    headers.forEach(out::put);
    out.put(HttpHeader.CONTENT_TYPE, stream.contentType());
    out.put(HttpHeader.CACHE_CONTROL, "no-store");
    out.put("X-Accel-Buffering", "no"); // proxies such as nginx must not hold chunks back
    response.setStatus(200);
    OpenStream[] self = new OpenStream[1];
    OpenStream open =
        new OpenStream(
            response,
            callback,
            () -> {
              streams.remove(self[0]);
              exchange.finish();
              router
                  .observer()
                  .answered(
                      request.getMethod(),
                      exchange.route.path().toString(),
                      200,
                      exchange.received == null ? 0 : exchange.received.bytes(),
                      System.nanoTime() - timing.start());
            },
            log);
    self[0] = open;
    streams.add(open);
    exchange.watch.add(open::clientGone);
    try {
      stream.producer().accept(open);
    } catch (RuntimeException e) {
      log.println("stream producer failed: " + e);
      e.printStackTrace(log);
      open.close();
    }
  }

  /** Writes the handler's response, or the error envelope of what it threw. */
  private void answer(
      org.eclipse.jetty.server.Request request,
      org.eclipse.jetty.server.Response response,
      Callback callback,
      Exchange exchange,
      ServerTiming timing,
      String requestId,
      Response r,
      Throwable thrown) {
    if (thrown instanceof java.util.concurrent.CompletionException && thrown.getCause() != null) {
      thrown = thrown.getCause();
    }
    int status = 0;
    Object body = null;
    Map<String, String> headers = Map.of();
    ApiException failure = null;
    if (thrown == null) {
      status = r.status();
      body = body(r, requestId);
      headers = r.headers();
    } else if (thrown instanceof ApiException e) {
      failure = e;
      headers = e.headers();
    } else {
      if (thrown instanceof Error e && !(e instanceof StackOverflowError)) {
        fatal.haltIfFatal(e, requestId); // an answer that came later: out of memory still exits
      }
      log.println("request " + requestId + " failed: " + thrown);
      thrown.printStackTrace(log);
      failure =
          new ApiException(ErrorCode.INTERNAL, "unexpected server error; request id " + requestId);
    }
    if (failure != null) {
      status = failure.code().status();
      Route.ErrorBody own = exchange.route == null ? null : exchange.route.errorBody();
      body =
          own == null
              ? error(failure, requestId, request.getHttpURI().getPath())
              : own.render(failure, requestId, request.getHeaders().get(HttpHeader.CONTENT_TYPE));
    }
    // A body not read to its end (refused before reading: 401, 404, 413, ...) leaves bytes on the
    // connection: it cannot carry another request, and the client must be told so.
    boolean unread = !exchange.bodyDone && request.getLength() != 0;
    boolean close = exchange.finish() || unread || status == ErrorCode.PAYLOAD_TOO_LARGE.status();
    if (exchange.received != null) {
      timing.add("read", exchange.received.nanos());
    }
    ByteBuffer bytes;
    String contentType = JsonErrorHandler.JSON_TYPE;
    long writeStart = System.nanoTime();
    try {
      if (body instanceof Response.Bytes raw) {
        bytes = ByteBuffer.wrap(raw.bytes());
        contentType = raw.contentType();
      } else {
        bytes = json.write(body);
      }
    } catch (IOException | RuntimeException e) {
      log.println("request " + requestId + " failed writing its response: " + e);
      status = 500;
      bytes =
          ByteBuffer.wrap(
              JsonErrorHandler.envelope(
                  json.mapper(),
                  500,
                  ErrorCode.INTERNAL,
                  "unexpected server error; request id " + requestId,
                  requestId));
    }
    timing.add("write", System.nanoTime() - writeStart);
    HttpFields.Mutable out = response.getHeaders();
    headers.forEach(out::put);
    out.put(HttpHeader.VARY, HttpHeader.ACCEPT_ENCODING.asString());
    if (bytes.remaining() >= Gzip.MIN_BYTES
        && Gzip.accepted(request.getHeaders().get(HttpHeader.ACCEPT_ENCODING))) {
      long gzipStart = System.nanoTime();
      bytes = Gzip.compress(bytes);
      timing.add("gzip", System.nanoTime() - gzipStart);
      out.put(HttpHeader.CONTENT_ENCODING, "gzip");
    }
    out.put("Server-Timing", timing.header(System.nanoTime()));
    out.put(HttpHeader.CONTENT_TYPE, contentType);
    if (close) {
      out.put(HttpHeader.CONNECTION, "close");
    }
    response.setStatus(status);
    Callback written =
        unread
            ? Callback.from(() -> BodyDrain.start(request, DRAIN_LIMIT, callback), callback::failed)
            : callback;
    response.write(true, bytes, written);
    router
        .observer()
        .answered(
            request.getMethod(),
            exchange.route == null ? "unmatched" : exchange.route.path().toString(),
            status,
            exchange.received == null ? 0 : exchange.received.bytes(),
            System.nanoTime() - timing.start());
  }

  private Response dispatch(
      org.eclipse.jetty.server.Request request, Exchange exchange, ServerTiming timing)
      throws IOException {
    String method = request.getMethod();
    String path = request.getHttpURI().getDecodedPath();
    Router.Match match = router.route(method, path);
    Route route = match.route();
    exchange.route = route;
    HttpFields headers = request.getHeaders();
    java.net.InetAddress client = remoteAddress(request);
    Principal principal =
        route
            .auth()
            .authenticate(headers.get(HttpHeader.AUTHORIZATION), client, limiter)
            .orElse(null);
    if (route.admission() != null) {
      exchange.admitted = route.admission().admit(principal);
    }
    RequestBody.Declared declared = RequestBody.check(route.body(), headers, route.maxBodyBytes());
    InputStream body = InputStream.nullInputStream();
    if (route.body().reads() && declared.present()) {
      exchange.startBody();
      exchange.received = new TimedInputStream(new CoalescingBodyStream(request));
      body =
          RequestBody.open(
              exchange.received,
              declared.gzip(),
              route.maxBodyBytes(),
              ApiServer.text(options.bodyTimeout()),
              exchange::bodyDone);
    } else if (!declared.present()) {
      exchange.bodyDone();
    }
    Request req =
        new Request(
            method,
            path,
            request.getHttpURI().getQuery(),
            match.params(),
            headers,
            client,
            request.isSecure(),
            request.getHttpURI().getHost(),
            principal,
            body,
            route.maxBodyBytes(),
            exchange.watch,
            timing);
    return route.handler().handle(req);
  }

  private static java.net.InetAddress remoteAddress(org.eclipse.jetty.server.Request request) {
    return request.getConnectionMetaData().getRemoteSocketAddress()
            instanceof java.net.InetSocketAddress inet
        ? inet.getAddress()
        : null;
  }

  private static Object body(Response response, String requestId) {
    if (!response.enveloped()) {
      return response.body();
    }
    Map<String, Object> envelope = new LinkedHashMap<>();
    envelope.put("status", response.status());
    envelope.put("requestId", requestId);
    if (response.body() != null) {
      envelope.put("result", response.body());
    }
    return envelope;
  }

  /**
   * The error envelope; under {@code /api/v2} it also carries the text as {@code message}, the
   * field HyperDX's document gives its errors.
   */
  private static Map<String, Object> error(ApiException e, String requestId, String path) {
    Map<String, Object> envelope = new LinkedHashMap<>();
    envelope.put("status", e.code().status());
    envelope.put("error", e.envelopeText());
    if (path != null && (path.equals("/api/v2") || path.startsWith("/api/v2/"))) {
      envelope.put("message", e.envelopeText());
    }
    envelope.put("requestId", requestId);
    return envelope;
  }

  /** The per-request state around the handler: body permit, read timeout and client watch. */
  private final class Exchange {
    private final EndPoint endPoint;
    private final ClientWatch watch;
    private Route route; // once the request has matched one
    private boolean permit;
    private boolean reading;
    private boolean bodyDone;
    private TimedInputStream received; // the body as it arrives, when the route reads one
    private AutoCloseable admitted; // what the route's admission gave, until the answer

    Exchange(org.eclipse.jetty.server.Request request) {
      this.endPoint = request.getConnectionMetaData().getConnection().getEndPoint();
      this.watch = new ClientWatch(endPoint, log);
    }

    void startBody() {
      if (!bodyReaders.tryAcquire()) {
        throw new ApiException(
            ErrorCode.TOO_MANY_REQUESTS,
            "too many requests are sending bodies at once; retry later",
            Map.of("Retry-After", "1", "Connection", "close"));
      }
      permit = true;
      reading = true;
      endPoint.setIdleTimeout(options.bodyTimeout().toMillis());
    }

    /** The body has been read to its end, or there is none. */
    void bodyDone() {
      bodyDone = true;
      endReading();
      watch.bodyDone();
    }

    private void endReading() {
      if (reading) {
        reading = false;
        endPoint.setIdleTimeout(options.idleTimeout().toMillis());
      }
      if (permit) {
        permit = false;
        bodyReaders.release();
      }
    }

    /**
     * @return whether the connection must close after the response (its body was not read to its
     *     end, or the watch consumed bytes of a following request)
     */
    boolean finish() {
      boolean unread = reading && !bodyDone;
      endReading();
      if (admitted != null) {
        try {
          admitted.close();
        } catch (Exception e) {
          log.println("releasing a request's admission failed: " + e);
        }
        admitted = null;
      }
      return watch.stop() || unread;
    }
  }
}
