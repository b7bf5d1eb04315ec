package dev.chartwell.server.http;

/** The error codes of the response envelope, each with its HTTP status. */
public enum ErrorCode {
  BAD_REQUEST(400),
  UNAUTHORIZED(401),
  FORBIDDEN(403),
  NOT_FOUND(404),
  METHOD_NOT_ALLOWED(405),
  REQUEST_TIMEOUT(408),
  CONFLICT(409),
  PAYLOAD_TOO_LARGE(413),
  URI_TOO_LONG(414),
  UNSUPPORTED_MEDIA_TYPE(415),
  EXPECTATION_FAILED(417),
  UNPROCESSABLE_ENTITY(422),
  TOO_MANY_REQUESTS(429),
  HEADER_FIELDS_TOO_LARGE(431),
  INTERNAL(500),
  NOT_IMPLEMENTED(501),
  SERVICE_UNAVAILABLE(503),
  HTTP_VERSION_NOT_SUPPORTED(505);

  private final int status;

  ErrorCode(int status) {
    this.status = status;
  }

  /**
   * @return the HTTP status code sent with this error
   */
  public int status() {
    return status;
  }

  /**
   * @param status an HTTP error status
   * @return the code with that status; for a status without its own code, {@link #BAD_REQUEST} for
   *     4xx and {@link #INTERNAL} otherwise
   */
  public static ErrorCode forStatus(int status) {
    for (ErrorCode c : values()) {
      if (c.status == status) {
        return c;
      }
    }
    return status >= 400 && status < 500 ? BAD_REQUEST : INTERNAL;
  }
}
