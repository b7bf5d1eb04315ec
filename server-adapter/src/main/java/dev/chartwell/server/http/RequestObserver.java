package dev.chartwell.server.http;

/** Told of every answered request, for the server's own metrics. */
@FunctionalInterface
public interface RequestObserver {
  /** Observes nothing. */
  RequestObserver NONE = (method, route, status, bodyBytes, nanos) -> {};

  /**
   * @param method the HTTP method
   * @param route the pattern of the route that answered, or {@code unmatched}
   * @param status the response status
   * @param bodyBytes the request body bytes received (before gzip decoding)
   * @param nanos how long the request took, up to its response being handed to the connection
   */
  void answered(String method, String route, int status, long bodyBytes, long nanos);
}
