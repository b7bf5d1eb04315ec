package dev.chartwell.server.prometheus;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.chartwell.engine.Engine;
import dev.chartwell.server.catalog.Catalog;
import dev.chartwell.server.security.OutboundPolicy;
import dev.chartwell.server.store.Secrets;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;

/**
 * What the metric store's tests run on without a server or HTTP: an engine and a catalog on a
 * directory, and the per-warehouse metric state over them ({@link #tenants()}).
 */
final class MetricStores implements AutoCloseable {
  final Engine engine;
  final Catalog catalog;

  /**
   * @param dir a fresh directory; the engine keeps its files under {@code dir/engine}
   */
  MetricStores(Path dir) throws IOException {
    engine = Engine.builder().dataDirectory(dir.resolve("engine")).build();
    try {
      catalog =
          Catalog.open(
              dir,
              engine,
              new ObjectMapper(),
              Clock.systemUTC(),
              false,
              OutboundPolicy.open(),
              Secrets.of(new byte[32]));
    } catch (IOException | RuntimeException e) {
      engine.close();
      throw e;
    }
  }

  /**
   * @return new per-warehouse state over the same tables (as after a server restart)
   */
  Tenants tenants() {
    return new Tenants(catalog, new ObjectMapper(), 100_000_000L);
  }

  @Override
  public void close() {
    catalog.close();
    engine.close();
  }
}
