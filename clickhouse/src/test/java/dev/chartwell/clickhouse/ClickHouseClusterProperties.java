package dev.chartwell.clickhouse;

import static dev.chartwell.engine.testing.Gens.check;

import dev.chartwell.clickhouse.local.LocalClickHouse;
import dev.chartwell.engine.ChartResult;
import dev.chartwell.engine.QueryOptions;
import dev.chartwell.engine.internal.exec.CaseShrinker;
import dev.chartwell.engine.internal.exec.DifferentialProperties;
import dev.chartwell.engine.internal.exec.DifferentialProperties.Case;
import dev.chartwell.engine.internal.exec.ReferenceEvaluator.Ev;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A two-shard cluster: two {@code clickhouse-server} processes started here, on loopback ports with
 * their own data directories and the same {@code remote_servers} cluster; each holds a local
 * MergeTree table with part of the events (every other event), and the backend reads a {@code
 * Distributed} table over both on the first server. Random queries of the engine's differential
 * generator must answer as the engine holding all the events does.
 */
class ClickHouseClusterProperties {
  private static final String CLUSTER = "cw_cluster";
  private static final List<LocalClickHouse> SHARDS = new ArrayList<>();
  private static ClickHouseClient first;
  private static final List<ClickHouseClient> CLIENTS = new ArrayList<>();
  private int examples;

  @BeforeAll
  static void start() throws Exception {
    List<String> command = LocalServer.commandOrSkip(ClickHouseClusterProperties.class);
    List<Integer> http = List.of(LocalClickHouse.freePort(), LocalClickHouse.freePort());
    List<Integer> tcp = List.of(LocalClickHouse.freePort(), LocalClickHouse.freePort());
    String cluster = LocalClickHouse.clusterConfig(CLUSTER, tcp);
    for (int i = 0; i < 2; i++) {
      Path dir = Files.createTempDirectory("chartwell-ch-shard" + i);
      SHARDS.add(LocalClickHouse.start(command, dir, http.get(i), tcp.get(i), "", cluster));
      CLIENTS.add(LocalServer.client(SHARDS.get(i), "shard" + i));
    }
    first = CLIENTS.get(0);
  }

  @AfterAll
  static void stop() throws Exception {
    for (LocalClickHouse s : SHARDS) {
      s.close();
      s.deleteFiles();
    }
  }

  @Test
  void distributedTableAnswersAsTheEngine() {
    check(
        Integer.getInteger("CH_CLUSTER_EXAMPLES", 60),
        0,
        DifferentialProperties.cases(),
        CaseShrinker::candidates,
        this::sameAnswers);
    System.out.println("ClickHouseClusterProperties: " + examples + " examples on 2 shards");
  }

  private void sameAnswers(Case generated) {
    Case c = ClickHouseDifferentialProperties.withUniqueTimes(generated);
    examples++;
    ChartResult expected = ClickHouseDifferentialProperties.engineAnswer(c);
    ClickHouseTable a = distributed("cw_a", c.data().a());
    ClickHouseTable b = distributed("cw_b", c.data().b());
    ClickHouseBackend backend =
        new ClickHouseBackend(
            id -> Optional.of(new ClickHouseBackend.Bound(first, id.equals("A") ? a : b)));
    DifferentialProperties.assertSame(
        expected, backend.query(c.query(), QueryOptions.DEFAULT), "ClickHouse, 2 shards", c);
  }

  /** The Distributed tables made so far, by name: made once, their local tables emptied. */
  private static final Map<String, ClickHouseTable> TABLES = new HashMap<>();

  /** A local table on each shard with every other event, and a Distributed table over them. */
  private static ClickHouseTable distributed(String name, List<Ev> events) {
    ClickHouseTable table = TABLES.computeIfAbsent(name, ClickHouseClusterProperties::create);
    for (int shard = 0; shard < 2; shard++) {
      ClickHouseClient client = CLIENTS.get(shard);
      client.query("TRUNCATE TABLE default." + name + "_local", null);
      List<Ev> part = new ArrayList<>();
      for (int i = shard; i < events.size(); i += 2) {
        part.add(events.get(i));
      }
      ClickHouseDifferentialProperties.insert(client, LOCAL_TABLES.get(name).get(shard), part);
    }
    // the Distributed table sees both shards' rows; the first shard alone holds only its half
    long all = Long.parseLong(first.query("SELECT count() FROM default." + name, null).trim());
    long half =
        Long.parseLong(first.query("SELECT count() FROM default." + name + "_local", null).trim());
    if (all != events.size() || half != (events.size() + 1) / 2) {
      throw new AssertionError(
          "expected " + events.size() + " rows over 2 shards, got " + all + " (" + half + ")");
    }
    return table;
  }

  /** Each shard's local table, by the Distributed table's name. */
  private static final Map<String, List<ClickHouseTable>> LOCAL_TABLES = new HashMap<>();

  /** Makes the local table on each shard and the Distributed table over them. */
  private static ClickHouseTable create(String name) {
    List<ClickHouseTable> locals = new ArrayList<>();
    for (ClickHouseClient client : CLIENTS) {
      client.query("DROP TABLE IF EXISTS default." + name + "_local", null);
      client.query(
          "CREATE TABLE default." + name + "_local " + ClickHouseDifferentialProperties.COLUMNS,
          null);
      locals.add(describe(client, name + "_local"));
    }
    LOCAL_TABLES.put(name, locals);
    first.query("DROP TABLE IF EXISTS default." + name, null);
    first.query(
        "CREATE TABLE default."
            + name
            + " AS default."
            + name
            + "_local ENGINE = Distributed("
            + CLUSTER
            + ", default, "
            + name
            + "_local, rand())",
        null);
    return describe(first, name);
  }

  private static ClickHouseTable describe(ClickHouseClient client, String name) {
    return ClickHouseTable.fromDescribe(
        "default",
        name,
        client.query("DESCRIBE TABLE default." + name + " FORMAT TabSeparated", null),
        "Timestamp",
        "Body");
  }
}
