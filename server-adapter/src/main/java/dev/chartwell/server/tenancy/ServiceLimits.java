package dev.chartwell.server.tenancy;

import dev.chartwell.server.charts.ServicePrincipal;
import dev.chartwell.server.http.ApiException;
import dev.chartwell.server.http.ErrorCode;
import dev.chartwell.server.http.Principal;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * How many queries and ingestion requests each service may have in flight at once ({@code
 * --max-queries-per-service}, {@code --max-ingests-per-service}); one more is answered 429 with
 * {@code Retry-After}, so that one busy service never takes the workers, query slots or body
 * permits the others need.
 */
public final class ServiceLimits {
  private final int maxQueries;
  private final int maxIngests;
  private final Map<String, AtomicInteger> queries = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> ingests = new ConcurrentHashMap<>();

  /**
   * @param maxQueries queries one service may run at once (at least 1)
   * @param maxIngests ingestion requests one service may send at once (at least 1)
   */
  public ServiceLimits(int maxQueries, int maxIngests) {
    if (maxQueries < 1 || maxIngests < 1) {
      throw new IllegalArgumentException("limits must be at least 1");
    }
    this.maxQueries = maxQueries;
    this.maxIngests = maxIngests;
  }

  /**
   * @param serviceId the service querying
   * @return its permit, to close when the query has answered
   * @throws ApiException 429 when the service runs its most queries already
   */
  public Permit query(String serviceId) {
    return take(queries, serviceId, maxQueries, "queries", "--max-queries-per-service");
  }

  /**
   * The admission of a query route whose query runs on the worker that reads its request ({@link
   * dev.chartwell.server.http.Route#withAdmission}), so that a refused query is answered before
   * anything of it is read.
   *
   * @param principal the request's principal, a service
   * @return its permit
   * @throws ApiException 429 when the service runs its most queries already
   */
  public Permit query(Principal principal) {
    return query(((ServicePrincipal) principal).id());
  }

  /**
   * @param serviceId the service sending events
   * @return its permit, to close when the request has answered
   * @throws ApiException 429 when the service sends its most ingestion requests already
   */
  public Permit ingest(String serviceId) {
    return take(ingests, serviceId, maxIngests, "ingestion requests", "--max-ingests-per-service");
  }

  /**
   * The admission of an ingestion route ({@link dev.chartwell.server.http.Route#withAdmission}),
   * asked before the body is read so that a refused request takes none of the body permits.
   *
   * @param principal the request's principal, a service
   * @return its permit
   * @throws ApiException 429 when the service sends its most ingestion requests already
   */
  public Permit ingest(Principal principal) {
    return ingest(((ServicePrincipal) principal).id());
  }

  private static Permit take(
      Map<String, AtomicInteger> counts, String serviceId, int max, String what, String flag) {
    AtomicInteger count = counts.computeIfAbsent(serviceId, id -> new AtomicInteger());
    if (count.incrementAndGet() > max) {
      count.decrementAndGet();
      throw new ApiException(
          ErrorCode.TOO_MANY_REQUESTS,
          "service "
              + serviceId
              + " has "
              + max
              + " "
              + what
              + " in flight, the most one service may have at once ("
              + flag
              + "); retry when one has answered",
          Map.of("Retry-After", "1"));
    }
    return new Permit(count);
  }

  /** A place taken by one request; closing it (once or more) gives it back. */
  public static final class Permit implements AutoCloseable {
    private final AtomicInteger count;
    private final AtomicBoolean released = new AtomicBoolean();

    private Permit(AtomicInteger count) {
      this.count = count;
    }

    /** Gives the place back (the first call only). */
    @Override
    public void close() {
      if (released.compareAndSet(false, true)) {
        count.decrementAndGet();
      }
    }
  }
}
