package dev.chartwell.clickhouse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.chartwell.engine.AggFn;
import dev.chartwell.engine.ChartQuery;
import dev.chartwell.engine.Granularity;
import dev.chartwell.engine.QueryAbortedException;
import dev.chartwell.engine.QueryOptions;
import dev.chartwell.engine.Series;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

/**
 * A query's own timeout stops a query on a ClickHouse that never answers, although the connection's
 * timeout allows an hour (issue 37: external queries ignored {@code --query-timeout}).
 */
class ClickHouseBackendTimeoutTest {
  @Test
  void theQueryTimeoutCancelsTheRequestWhateverTheConnectionAllows() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    ExecutorService threads = Executors.newCachedThreadPool();
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
    server.setExecutor(threads);
    server.createContext(
        "/",
        x -> {
          x.getRequestBody().readAllBytes();
          try {
            release.await(); // never answers
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          x.close();
        });
    server.start();
    try {
      ClickHouseClient client =
          new ClickHouseClient(
              new ClickHouseConnection(
                  "slow",
                  URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/"),
                  "default",
                  "",
                  Duration.ofHours(1)));
      ClickHouseTable table =
          new ClickHouseTable(
              "default",
              "logs",
              List.of(
                  ClickHouseTable.Column.of("Timestamp", "DateTime64(9)"),
                  ClickHouseTable.Column.of("Body", "String")),
              "Timestamp",
              null);
      ClickHouseBackend backend =
          new ClickHouseBackend(id -> Optional.of(new ClickHouseBackend.Bound(client, table)));
      ChartQuery q =
          new ChartQuery(
              1_778_371_200_000L,
              1_778_374_800_000L,
              Granularity.MINUTE,
              List.of(Series.of("logs", AggFn.COUNT, null, null)),
              null);
      QueryAbortedException e =
          assertThrows(
              QueryAbortedException.class,
              () -> backend.query(q, QueryOptions.DEFAULT.withTimeout(Duration.ofMillis(300))));
      assertEquals(QueryAbortedException.Reason.TIMEOUT, e.reason());
      assertTrue(e.getMessage().contains("within its timeout of 300ms"), e.getMessage());
    } finally {
      release.countDown();
      server.stop(0);
      threads.shutdownNow();
    }
  }
}
