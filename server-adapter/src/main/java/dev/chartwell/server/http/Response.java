package dev.chartwell.server.http;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a handler answers: a status and a JSON body (or, for a protocol with bodies of its own, a
 * {@link Bytes} body). Management endpoints answer inside the envelope {@code
 * {"status","requestId","result"}} ({@link #envelope}); the chart API answers bare objects ({@link
 * #json}). The server adds the request id when it writes the envelope.
 *
 * @param status HTTP status
 * @param body a Jackson-serializable body, a {@link Bytes} body written as it is, or {@code null}
 *     for an envelope without result
 * @param enveloped whether the body is wrapped in the management envelope
 * @param headers extra response headers (for example {@code ETag}), none for most answers
 */
public record Response(int status, Object body, boolean enveloped, Map<String, String> headers) {

  /**
   * @param status HTTP status
   * @param body the body
   * @param headers extra response headers
   * @param enveloped whether the body is wrapped in the management envelope
   */
  public Response {
    headers = Map.copyOf(headers);
  }

  /**
   * A response without extra headers.
   *
   * @param status HTTP status
   * @param body a Jackson-serializable body, a {@link Bytes} body, or {@code null}
   * @param enveloped whether the body is wrapped in the management envelope
   */
  public Response(int status, Object body, boolean enveloped) {
    this(status, body, enveloped, Map.of());
  }

  /**
   * @param name a header name
   * @param value its value
   * @return this response with that header too
   */
  public Response withHeader(String name, String value) {
    Map<String, String> h = new LinkedHashMap<>(headers);
    h.put(name, value);
    return new Response(status, body, enveloped, h);
  }

  /**
   * @param status HTTP status
   * @param body a Jackson-serializable body
   * @return a plain JSON response
   */
  public static Response json(int status, Object body) {
    return new Response(status, body, false);
  }

  /**
   * @param result the management result object
   * @return {@code 200 {"status":200,"requestId":...,"result":result}}
   */
  public static Response envelope(Object result) {
    return new Response(200, result, true);
  }

  /**
   * @return {@code 200 {"status":200,"requestId":...}}, the answer to a DELETE
   */
  public static Response emptyEnvelope() {
    return new Response(200, null, true);
  }

  /**
   * @param status HTTP status
   * @param contentType the body's media type
   * @param bytes the body
   * @return a response whose body is written as it is
   */
  public static Response bytes(int status, String contentType, byte[] bytes) {
    return new Response(status, new Bytes(contentType, bytes), false);
  }

  /**
   * An answer that comes later, from another thread: the HTTP worker is let go at once and the
   * response is written when the future completes (its failure is answered as a handler's would
   * be). For work that waits on something slow, such as an external ClickHouse.
   *
   * @param answer the response to come
   * @return a response standing for it
   */
  public static Response later(java.util.concurrent.CompletableFuture<Response> answer) {
    return new Response(200, new Later(answer), false);
  }

  /**
   * A streamed answer: status 200 with the given media type, sent chunked as the producer writes;
   * the HTTP worker is let go at once. Errors found before streaming are thrown by the handler as
   * usual; once streaming, the producer reports them in its own format.
   *
   * @param contentType the body's media type
   * @param producer given the sink once the response headers are ready; must not block
   * @return a response standing for the stream
   */
  public static Response stream(
      String contentType, java.util.function.Consumer<StreamSink> producer) {
    return new Response(200, new Stream(contentType, producer), false);
  }

  /**
   * The body of {@link #stream}.
   *
   * @param contentType the body's media type
   * @param producer given the sink once the response headers are ready
   */
  public record Stream(String contentType, java.util.function.Consumer<StreamSink> producer) {}

  /**
   * The body of {@link #later}.
   *
   * @param answer the response to come
   */
  public record Later(java.util.concurrent.CompletableFuture<Response> answer) {}

  /**
   * A body in another encoding than JSON.
   *
   * @param contentType its media type
   * @param bytes the body
   */
  public record Bytes(String contentType, byte[] bytes) {}
}
