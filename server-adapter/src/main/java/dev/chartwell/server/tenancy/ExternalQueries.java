package dev.chartwell.server.tenancy;

import dev.chartwell.engine.QueryAbortedException;
import dev.chartwell.engine.QueryControl;
import dev.chartwell.server.http.ApiException;
import dev.chartwell.server.http.ErrorCode;
import dev.chartwell.server.http.Response;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs queries on external ClickHouse connections off the HTTP workers: the handler hands the call
 * over and returns {@link Response#later}, so a slow ClickHouse holds one of these threads, never a
 * worker that {@code /health} and other services need. Each query is stopped at {@code
 * --query-timeout} (its control is aborted, which cancels the HTTP request to ClickHouse), whatever
 * its connection's own timeout allows. At most {@code threads} queries run and as many wait; one
 * more is answered 429.
 */
public final class ExternalQueries implements AutoCloseable {
  /** Runs the query and answers; throws what the handler would throw. */
  @FunctionalInterface
  public interface Call {
    /**
     * @return the response
     * @throws java.io.IOException as a handler may (and {@link ApiException} and the like)
     */
    Response run() throws java.io.IOException;
  }

  private final ThreadPoolExecutor pool;
  private final Duration timeout;

  /**
   * @param threads queries that run at once (as many more may wait)
   * @param timeout how long one may take ({@code --query-timeout})
   */
  public ExternalQueries(int threads, Duration timeout) {
    this.timeout = timeout;
    AtomicInteger n = new AtomicInteger();
    this.pool =
        new ThreadPoolExecutor(
            threads,
            threads,
            30,
            TimeUnit.SECONDS,
            new ArrayBlockingQueue<>(threads),
            r -> daemon(r, "chartwell-external-query-" + n.incrementAndGet()));
    pool.allowCoreThreadTimeOut(true);
  }

  private static Thread daemon(Runnable r, String name) {
    Thread t = new Thread(r, name);
    t.setDaemon(true);
    return t;
  }

  /**
   * Starts a query; its deadline runs from now.
   *
   * @param control the query's control, aborted at the deadline (the call must pass it on)
   * @param call the query and its answer
   * @return the answer to come, or the call's failure
   * @throws ApiException 429 when as many queries run and wait as may
   */
  public CompletableFuture<Response> submit(QueryControl control, Call call) {
    CompletableFuture<Response> answer = new CompletableFuture<>();
    try {
      pool.execute(
          () -> {
            try {
              answer.complete(call.run());
            } catch (Throwable t) {
              answer.completeExceptionally(t);
            }
          });
    } catch (RejectedExecutionException e) {
      throw new ApiException(
          ErrorCode.TOO_MANY_REQUESTS,
          "too many queries on external ClickHouse connections run and wait now; retry later",
          Map.of("Retry-After", "1"));
    }
    // The JDK's shared timer: aborting a query that has answered meanwhile does nothing.
    CompletableFuture.delayedExecutor(timeout.toMillis(), TimeUnit.MILLISECONDS)
        .execute(
            () -> {
              if (!answer.isDone()) {
                control.abort(
                    QueryAbortedException.Reason.TIMEOUT,
                    "the query on the external ClickHouse did not answer within --query-timeout ("
                        + describe(timeout)
                        + "); it was cancelled: narrow its time range or filter, or raise"
                        + " --query-timeout");
              }
            });
    return answer;
  }

  private static String describe(Duration d) {
    long ms = d.toMillis();
    return ms % 1000 == 0 ? ms / 1000 + "s" : ms + "ms";
  }

  /** Stops the threads; queries still running are interrupted. */
  @Override
  public void close() {
    pool.shutdownNow();
  }
}
