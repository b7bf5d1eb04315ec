package dev.chartwell.bench.http;

import dev.chartwell.bench.BenchLogs;
import dev.chartwell.clickhouse.local.LocalClickHouse;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code sidebyside --shards 2}: after the single-server run, the same events on a two-shard
 * ClickHouse cluster (two more local servers with a {@code remote_servers} cluster, every other
 * event in each shard's MergeTree table, a {@code Distributed} table over both), and Q1–Q6 through
 * a Chartwell source on the Distributed table beside the same SQL on it directly. Both shards run
 * on the same machine, so this shows the cost of the layer over a cluster, not a speed-up.
 */
final class TwoShards {
  private static final String CLUSTER = "bench";

  private final Flags flags;
  private final PrintStream out;

  TwoShards(Flags flags, PrintStream out) {
    this.flags = flags;
    this.out = out;
  }

  /**
   * @return whether every answer through the source agreed with the direct answer
   */
  boolean run(List<String> command, Path work, Path file, long events, ChartwellProcess cw)
      throws Exception {
    List<Integer> httpPorts = List.of(LocalClickHouse.freePort(), LocalClickHouse.freePort());
    List<Integer> tcpPorts = List.of(LocalClickHouse.freePort(), LocalClickHouse.freePort());
    String cluster = LocalClickHouse.clusterConfig(CLUSTER, tcpPorts);
    List<Path> halves = List.of(work.resolve("shard0.ndjson"), work.resolve("shard1.ndjson"));
    split(file, halves);
    List<LocalClickHouse> shards = new ArrayList<>();
    try {
      for (int i = 0; i < 2; i++) {
        Path dir = Files.createDirectories(work.resolve("clickhouse-shard" + i));
        shards.add(
            LocalClickHouse.start(command, dir, httpPorts.get(i), tcpPorts.get(i), "", cluster));
      }
      long start = System.nanoTime();
      for (int i = 0; i < 2; i++) {
        shards
            .get(i)
            .select(
                ClickHouse.CREATE_TABLE.replace(
                    "CREATE TABLE " + ClickHouse.TABLE,
                    "CREATE TABLE " + ClickHouse.TABLE + "_local"),
                "allow_experimental_low_cardinality_type=1");
        shards
            .get(i)
            .insertFile(
                "INSERT INTO " + ClickHouse.TABLE + "_local FORMAT JSONEachRow",
                halves.get(i),
                "input_format_skip_unknown_fields=1");
      }
      shards
          .get(0)
          .select(
              "CREATE TABLE "
                  + ClickHouse.TABLE
                  + " AS "
                  + ClickHouse.TABLE
                  + "_local ENGINE = Distributed("
                  + CLUSTER
                  + ", default, "
                  + ClickHouse.TABLE
                  + "_local, rand())",
              "allow_experimental_low_cardinality_type=1");
      long rows =
          Long.parseLong(shards.get(0).query("SELECT count() FROM " + ClickHouse.TABLE).trim());
      out.printf(
          Locale.ROOT,
          "%nTwo shards: %,d events (every other one in each shard) loaded in %.1f s; the"
              + " Distributed table counts %,d%n",
          events,
          (System.nanoTime() - start) / 1e9,
          rows);
      if (rows != events) {
        throw new IllegalStateException("the Distributed table counts " + rows + ", not " + events);
      }
      String via = cw.clickHouseSource(shards.get(0).url(), "bench-two-shards");
      return queries(shards.get(0), cw, via);
    } finally {
      for (LocalClickHouse s : shards) {
        s.close();
      }
      for (Path h : halves) {
        Files.deleteIfExists(h);
      }
    }
  }

  private boolean queries(LocalClickHouse first, ChartwellProcess cw, String via) throws Exception {
    int runs = flags.integer("runs", SideBySide.RUNS);
    int warmup = flags.integer("warmup", SideBySide.WARMUP);
    double tolerance = Double.parseDouble(flags.get("tolerance", "1e-9"));
    List<BenchQueries.Query> qs = BenchQueries.all(via, ClickHouse.TABLE, BenchLogs.END);
    List<Timings> direct = new ArrayList<>();
    List<Timings[]> through = new ArrayList<>();
    List<String> verdicts = new ArrayList<>();
    for (int i = 0; i < qs.size(); i++) {
      direct.add(new Timings());
      through.add(new Timings[] {new Timings(), new Timings()});
      verdicts.add(null);
    }
    try (PlainHttp cwClient = new PlainHttp(URI.create(cw.url()));
        PlainHttp chClient = new PlainHttp(URI.create(first.url()))) {
      for (int round = 0; round < warmup + runs; round++) {
        for (int i = 0; i < qs.size(); i++) {
          BenchQueries.Query q = qs.get(i);
          long t = System.nanoTime();
          byte[] answer = ClickHouse.select(chClient, q.sql());
          double ms = (System.nanoTime() - t) / 1e6;
          ChartCall c = ChartCall.send(cwClient, cw.token(), q.chartBody());
          if (round == 0) {
            verdicts.set(i, SideBySide.verdict(q, c.body(), answer, tolerance));
          }
          if (round >= warmup) {
            direct.get(i).add(ms);
            through.get(i)[0].add(c.clientMs());
            through.get(i)[1].add(c.engineMs());
          }
        }
      }
    }
    out.println(
        "query  through a Chartwell source on the Distributed table  (its ClickHouse step)"
            + "   Distributed table directly   through/directly   answers");
    boolean agreed = true;
    for (int i = 0; i < qs.size(); i++) {
      out.printf(
          Locale.ROOT,
          "%-5s %12.2f ms %24.2f ms %20.2f ms %14.2fx   %s%n",
          qs.get(i).name(),
          through.get(i)[0].median(),
          through.get(i)[1].median(),
          direct.get(i).median(),
          through.get(i)[0].median() / direct.get(i).median(),
          verdicts.get(i).lines().findFirst().orElse(""));
      agreed &= verdicts.get(i).startsWith("agree");
    }
    for (int i = 0; i < qs.size(); i++) {
      if (!verdicts.get(i).startsWith("agree")) {
        out.println(qs.get(i).name() + " differs:");
        verdicts.get(i).lines().skip(1).forEach(l -> out.println("  " + l));
      }
    }
    return agreed;
  }

  /** Every other line of the file into each half. */
  private static void split(Path file, List<Path> halves) throws IOException {
    try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8);
        BufferedWriter a = Files.newBufferedWriter(halves.get(0), StandardCharsets.UTF_8);
        BufferedWriter b = Files.newBufferedWriter(halves.get(1), StandardCharsets.UTF_8)) {
      String line;
      long n = 0;
      while ((line = in.readLine()) != null) {
        BufferedWriter w = (n++ % 2 == 0) ? a : b;
        w.write(line);
        w.write('\n');
      }
    }
  }
}
