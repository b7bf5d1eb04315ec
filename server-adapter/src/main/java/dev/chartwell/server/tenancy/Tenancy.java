package dev.chartwell.server.tenancy;

import dev.chartwell.engine.QueryControl;
import dev.chartwell.server.http.ApiException;
import dev.chartwell.server.http.Response;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;

/**
 * The per-service limits and the external query runner, as the query and ingestion routes use them.
 *
 * @param limits concurrent queries and ingestion requests per service
 * @param external where queries on external ClickHouse connections run
 */
public record Tenancy(ServiceLimits limits, ExternalQueries external) {
  /**
   * Runs a service's query under its query permit: on this worker when it reads the engine, on the
   * {@link ExternalQueries} (answering {@link Response#later}) when it reads an external
   * ClickHouse.
   *
   * @param serviceId the service querying
   * @param external whether the query reads an external ClickHouse
   * @param control the query's control (aborted at {@code --query-timeout} when external)
   * @param call runs the query and answers
   * @return the answer, or one to come
   * @throws ApiException 429 when the service runs its most queries already, or the external runner
   *     is full
   * @throws IOException as the call may
   */
  public Response query(
      String serviceId, boolean external, QueryControl control, ExternalQueries.Call call)
      throws IOException {
    ServiceLimits.Permit permit = limits.query(serviceId);
    if (!external) {
      try (permit) {
        return call.run();
      }
    }
    CompletableFuture<Response> answer;
    try {
      answer = this.external.submit(control, call);
    } catch (RuntimeException e) {
      permit.close();
      throw e;
    }
    answer.whenComplete((r, t) -> permit.close());
    return Response.later(answer);
  }
}
