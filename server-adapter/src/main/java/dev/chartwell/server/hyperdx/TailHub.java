package dev.chartwell.server.hyperdx;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.chartwell.server.http.ApiException;
import dev.chartwell.server.http.ErrorCode;
import dev.chartwell.server.http.StreamSink;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The live tails of a server: at most {@link #maxPerService} open at once per service, their rounds
 * run by two scheduler threads that exist only while tails are open (they end after a few idle
 * seconds), so that a tail holds no HTTP worker and a stopped server leaks no thread.
 */
final class TailHub {
  /** Tails one service may have open at once. */
  static final int MAX_PER_SERVICE = 4;

  /** How often a tail looks at its source's count of accepted events. */
  static final long EVERY_MILLIS = 200;

  /** The longest a tail stays silent before a heartbeat line. */
  static final Duration HEARTBEAT = Duration.ofSeconds(15);

  private final int maxPerService;
  private final Duration heartbeat;
  private final Clock clock;
  private final ObjectMapper mapper;
  private final Map<String, AtomicInteger> open = new ConcurrentHashMap<>();
  private final ScheduledThreadPoolExecutor scheduler;

  /**
   * @param maxPerService tails one service may have open at once
   * @param heartbeat the longest silence before a heartbeat line
   * @param clock the server's clock
   * @param mapper writes the lines
   */
  TailHub(int maxPerService, Duration heartbeat, Clock clock, ObjectMapper mapper) {
    this.maxPerService = maxPerService;
    this.heartbeat = heartbeat;
    this.clock = clock;
    this.mapper = mapper;
    AtomicInteger n = new AtomicInteger();
    this.scheduler =
        new ScheduledThreadPoolExecutor(
            2,
            r -> {
              Thread t = new Thread(r, "chartwell-tail-" + n.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
    scheduler.setKeepAliveTime(5, TimeUnit.SECONDS);
    scheduler.allowCoreThreadTimeOut(true);
    scheduler.setRemoveOnCancelPolicy(true);
  }

  /**
   * Takes one of the service's tail slots and prepares the tail.
   *
   * @param serviceId the service
   * @param spec what to follow
   * @return the producer of the streamed response
   * @throws ApiException 429 when the service has its most tails open already
   */
  java.util.function.Consumer<StreamSink> open(String serviceId, TailStream.Spec spec) {
    AtomicInteger count = open.computeIfAbsent(serviceId, id -> new AtomicInteger());
    if (count.incrementAndGet() > maxPerService) {
      count.decrementAndGet();
      throw new ApiException(
          ErrorCode.TOO_MANY_REQUESTS,
          "service "
              + serviceId
              + " has "
              + maxPerService
              + " live tails open, the most one service may have at once: close one first",
          Map.of("Retry-After", "5"));
    }
    AtomicBoolean released = new AtomicBoolean();
    Runnable release =
        () -> {
          if (released.compareAndSet(false, true)) {
            count.decrementAndGet();
          }
        };
    TailStream tail = new TailStream(spec, clock, mapper, heartbeat.toNanos(), release);
    return sink -> tail.start(sink, scheduler, EVERY_MILLIS);
  }
}
