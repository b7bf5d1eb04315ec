package dev.chartwell.server.http;

import dev.chartwell.engine.InvalidQueryException;
import java.util.List;
import java.util.Map;

/**
 * A request that cannot be served, with the error code and the text the client sees. Handlers throw
 * it; the server turns it into the error envelope {@code {"status","error","requestId"}}.
 */
public final class ApiException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final ErrorCode code;
  private final transient Map<String, String> headers;

  /**
   * @param code the error code
   * @param text what is wrong, naming the field path where there is one
   */
  public ApiException(ErrorCode code, String text) {
    this(code, text, Map.of());
  }

  /**
   * @param code the error code
   * @param text what is wrong
   * @param headers extra response headers (for example {@code Allow} or {@code WWW-Authenticate})
   */
  public ApiException(ErrorCode code, String text, Map<String, String> headers) {
    super(text, null, false, false);
    this.code = code;
    this.headers = Map.copyOf(headers);
  }

  /**
   * @return the error code
   */
  public ErrorCode code() {
    return code;
  }

  /**
   * @return extra headers to send with the error response
   */
  public Map<String, String> headers() {
    return headers;
  }

  /**
   * @return the {@code error} field of the envelope: {@code "CODE: text"}
   */
  public String envelopeText() {
    return code.name() + ": " + getMessage();
  }

  /**
   * @param text what is wrong
   * @return a 400
   */
  public static ApiException badRequest(String text) {
    return new ApiException(ErrorCode.BAD_REQUEST, text);
  }

  /**
   * @param problems what is wrong, each naming its field path
   * @return a 400 listing at most 20 of them (each cut short), then how many more there are
   */
  public static ApiException badRequest(List<String> problems) {
    return badRequest(InvalidQueryException.summary(problems));
  }

  /**
   * @param text what was not found
   * @return a 404
   */
  public static ApiException notFound(String text) {
    return new ApiException(ErrorCode.NOT_FOUND, text);
  }

  /**
   * @param text why the request conflicts with the current state
   * @return a 409
   */
  public static ApiException conflict(String text) {
    return new ApiException(ErrorCode.CONFLICT, text);
  }

  /**
   * @param text why access is refused
   * @return a 403
   */
  public static ApiException forbidden(String text) {
    return new ApiException(ErrorCode.FORBIDDEN, text);
  }
}
