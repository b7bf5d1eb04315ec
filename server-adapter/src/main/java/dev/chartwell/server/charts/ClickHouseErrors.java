package dev.chartwell.server.charts;

import dev.chartwell.clickhouse.ClickHouseException;
import dev.chartwell.server.http.ApiException;
import dev.chartwell.server.http.ErrorCode;

/**
 * The answer to a query that an external ClickHouse could not answer. The message (which names the
 * connection and the cause, never the password) is passed on; the status says whose move it is: a
 * rejected query, refused credentials or a destination the outbound address policy refuses are the
 * caller's to fix (400), an unreachable server or a timeout may pass (503).
 */
public final class ClickHouseErrors {
  private ClickHouseErrors() {}

  /**
   * @param e the failure
   * @return the API error
   */
  public static ApiException answer(ClickHouseException e) {
    return switch (e.kind()) {
      case REJECTED, AUTHENTICATION, REFUSED -> ApiException.badRequest(e.getMessage());
      case UNREACHABLE, TIMEOUT -> new ApiException(ErrorCode.SERVICE_UNAVAILABLE, e.getMessage());
    };
  }
}
