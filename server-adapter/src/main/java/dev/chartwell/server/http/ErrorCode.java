package dev.chartwell.server.http;

/** The error codes of the response envelope, each with its HTTP status. */
public enum ErrorCode {
  BAD_REQUEST(400),
  UNAUTHORIZED(401),
  FORBIDDEN(403),
  NOT_FOUND(404),
  METHOD_NOT_ALLOWED(405),
  CONFLICT(409),
  PAYLOAD_TOO_LARGE(413),
  UNSUPPORTED_MEDIA_TYPE(415),
  TOO_MANY_REQUESTS(429),
  INTERNAL(500),
  SERVICE_UNAVAILABLE(503);

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
}
