package dev.chartwell.server.http;

import java.io.IOException;

/** Serves one route: reads the request, returns the response or throws {@link ApiException}. */
@FunctionalInterface
public interface Handler {
  /**
   * @param request the request, with path parameters and principal resolved
   * @return the response to send
   * @throws IOException when reading the request body fails
   */
  Response handle(Request request) throws IOException;
}
