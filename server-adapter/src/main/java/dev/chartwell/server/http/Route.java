package dev.chartwell.server.http;

import java.util.Locale;
import java.util.Set;

/**
 * One endpoint: method, path pattern, the authentication it needs, its body-size limit, the bodies
 * it reads and its handler.
 *
 * @param method HTTP method, upper case
 * @param path the path pattern
 * @param auth the required authentication
 * @param maxBodyBytes the largest request body accepted (413 beyond), before and after decoding
 * @param body the request bodies the route reads
 * @param handler the handler
 * @param errorBody how the route's errors are written, when its protocol defines its own error
 *     body; {@code null} for the JSON error envelope
 * @param admission asked once the request is authenticated, before its body is read; {@code null}
 *     for none
 */
public record Route(
    String method,
    PathPattern path,
    Authenticator auth,
    long maxBodyBytes,
    Body body,
    Handler handler,
    ErrorBody errorBody,
    Admission admission) {

  /**
   * A route whose errors are the JSON error envelope.
   *
   * @param method HTTP method, upper case
   * @param path the path pattern
   * @param auth the required authentication
   * @param maxBodyBytes the largest request body accepted (413 beyond), before and after decoding
   * @param body the request bodies the route reads
   * @param handler the handler
   */
  public Route(
      String method,
      PathPattern path,
      Authenticator auth,
      long maxBodyBytes,
      Body body,
      Handler handler) {
    this(method, path, auth, maxBodyBytes, body, handler, null, null);
  }

  /**
   * @param errors how this route's errors are written
   * @return the same route, writing its errors (authentication, body rules and its handler's) so
   */
  public Route withErrorBody(ErrorBody errors) {
    return new Route(method, path, auth, maxBodyBytes, body, handler, errors, admission);
  }

  /**
   * @param admit decides, once the request is authenticated and before its body is read, whether it
   *     may go on (a per-service limit)
   * @return the same route, admitting its requests so
   */
  public Route withAdmission(Admission admit) {
    return new Route(method, path, auth, maxBodyBytes, body, handler, errorBody, admit);
  }

  /**
   * Lets a request go on, or refuses it before its body is read (and before it takes one of the
   * permits bodies need).
   */
  @FunctionalInterface
  public interface Admission {
    /**
     * @param principal who sends the request
     * @return what the request holds until it has answered, closed then
     * @throws ApiException when the request is refused
     */
    AutoCloseable admit(Principal principal);
  }

  /**
   * Writes the error responses of a route whose protocol defines its own error body (OTLP answers
   * with a {@code Status} message in the request's encoding). The status code, the headers of the
   * error and the {@code X-Request-Id} header are the server's, as for every route.
   */
  @FunctionalInterface
  public interface ErrorBody {
    /**
     * @param error the error
     * @param requestId the request's id
     * @param contentType the request's {@code Content-Type} header, or {@code null}
     * @return the response body and its content type
     */
    Response.Bytes render(ApiException error, String requestId, String contentType);
  }

  /**
   * A route whose body rule follows from its method: {@code POST}, {@code PUT} and {@code PATCH}
   * require a JSON body ({@link Body#JSON}), other methods read none ({@link Body#NONE}).
   *
   * @param method HTTP method, upper case
   * @param path the path pattern
   * @param auth the required authentication
   * @param maxBodyBytes the largest request body accepted (413 beyond)
   * @param handler the handler
   */
  public Route(
      String method, PathPattern path, Authenticator auth, long maxBodyBytes, Handler handler) {
    this(method, path, auth, maxBodyBytes, Body.defaultFor(method), handler);
  }

  /**
   * The request bodies a route reads: the media types it accepts in {@code Content-Type} and
   * whether a body is required. A request that carries a body (or needs one) without one of the
   * accepted types is a 415 naming them; a {@code charset} parameter, when given, must be UTF-8. A
   * route that reads no body ignores whatever the request sends.
   *
   * @param mediaTypes accepted media types, lower case, without parameters; empty when the route
   *     reads no body
   * @param required whether a request without a body (and without a {@code Content-Type}) is
   *     refused with 415
   * @param ownEncodings {@code Content-Encoding} codings the handler decodes itself (the body is
   *     handed over as received), lower case; gzip and identity are always accepted
   */
  public record Body(Set<String> mediaTypes, boolean required, Set<String> ownEncodings) {
    /** The route reads no body. */
    public static final Body NONE = new Body(Set.of(), false);

    /** The route requires a JSON body. */
    public static final Body JSON = new Body(Set.of("application/json"), true);

    /** The route reads a JSON body when there is one; an empty request is fine. */
    public static final Body OPTIONAL_JSON = new Body(Set.of("application/json"), false);

    /**
     * A body whose only codings are gzip and identity.
     *
     * @param mediaTypes accepted media types
     * @param required whether a body is required
     */
    public Body(Set<String> mediaTypes, boolean required) {
      this(mediaTypes, required, Set.of());
    }

    /**
     * @param mediaTypes accepted media types
     * @param required whether a body is required
     * @param ownEncodings codings the handler decodes
     */
    public Body {
      mediaTypes = Set.copyOf(mediaTypes);
      ownEncodings = Set.copyOf(ownEncodings);
      for (String t : mediaTypes) {
        if (!t.equals(t.toLowerCase(Locale.ROOT)) || t.indexOf('/') <= 0 || t.contains(";")) {
          throw new IllegalArgumentException("media type must be lower-case type/subtype: " + t);
        }
      }
    }

    /**
     * @param method an HTTP method
     * @return {@link #JSON} for POST, PUT and PATCH, otherwise {@link #NONE}
     */
    public static Body defaultFor(String method) {
      return switch (method) {
        case "POST", "PUT", "PATCH" -> JSON;
        default -> NONE;
      };
    }

    /**
     * @return whether the route reads a body at all
     */
    public boolean reads() {
      return !mediaTypes.isEmpty();
    }
  }
}
