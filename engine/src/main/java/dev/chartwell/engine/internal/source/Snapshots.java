package dev.chartwell.engine.internal.source;

import dev.chartwell.engine.Source;
import java.util.Objects;
import java.util.function.Function;

/**
 * Internal access to a public {@link Source}'s snapshots, for readers inside Chartwell that need
 * the segments themselves (PromQL's series reader scans columns, which no public query does), and
 * to its count of accepted events (the server's live tail follows it). The {@link Source} class
 * installs its accessor here when it is initialized, so that the public API keeps no method that
 * names an internal type.
 */
public final class Snapshots {
  private static volatile Function<Source, SourceCore> cores;

  private Snapshots() {}

  /**
   * Called once, by {@link Source}'s static initializer.
   *
   * @param accessor gives a source's mechanics
   */
  public static void install(Function<Source, SourceCore> accessor) {
    if (cores != null) {
      throw new IllegalStateException("the source accessor is installed already");
    }
    cores = Objects.requireNonNull(accessor);
  }

  /**
   * A consistent view of a source's events; close it when done.
   *
   * @param source a source of an open engine
   * @return its snapshot
   */
  public static SourceSnapshot of(Source source) {
    return cores.apply(source).snapshot();
  }

  /**
   * The mechanics behind a source, for a query engine of a warm-up's own over the real sources.
   *
   * @param source a source of an open engine
   * @return its core
   */
  public static SourceCore core(Source source) {
    return cores.apply(source);
  }

  /**
   * A cheap number that grows whenever an append stores events: a follower searches for new events
   * only when it moved.
   *
   * @param source a source
   * @return the events it accepted since it was opened
   */
  public static long acceptedEvents(Source source) {
    return cores.apply(source).acceptedEvents();
  }
}
