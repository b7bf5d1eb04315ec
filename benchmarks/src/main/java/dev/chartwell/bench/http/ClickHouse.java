package dev.chartwell.bench.http;

import dev.chartwell.clickhouse.local.LocalClickHouse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A local ClickHouse server started for one run: the binary of the installed package (Debian's
 * {@code clickhouse-server}), a configuration written to a temporary folder that also holds its
 * data, and an HTTP port on 127.0.0.1 only (no native, interserver or MySQL port). Nothing is ever
 * installed: without the binary {@link #find} says so and the caller skips ClickHouse. The process
 * is a {@link LocalClickHouse}, the launcher the tests of the ClickHouse backend share.
 */
final class ClickHouse implements AutoCloseable {
  /** The table the harness creates and loads. */
  static final String TABLE = "bench_logs";

  /**
   * The table: sorted by time, the low-cardinality strings as {@code LowCardinality(String)}, the
   * others as plain strings, numbers in their smallest natural type, ClickHouse's default
   * compression (LZ4). {@code Timestamp} holds epoch milliseconds as the NDJSON file has them
   * (ClickHouse 18.16 has no {@code DateTime64}). {@code LogAttributes.http.method} is left out:
   * ClickHouse 18.16 cannot import a nested object whose keys contain dots, so the load skips it
   * (which flatters ClickHouse's bytes per event by that one column).
   */
  static final String CREATE_TABLE =
      "CREATE TABLE "
          + TABLE
          + " (Timestamp UInt64, ServiceName LowCardinality(String),"
          + " SeverityText LowCardinality(String), host LowCardinality(String), status UInt16,"
          + " Duration Float64, TraceId String, Body String)"
          + " ENGINE = MergeTree ORDER BY Timestamp";

  private final LocalClickHouse server;

  private ClickHouse(LocalClickHouse server) {
    this.server = server;
  }

  /**
   * @param given a path the user gave, or {@code null} to look in {@code PATH}, {@code /usr/sbin}
   *     and {@code /usr/bin}
   * @return the command that starts a server; empty when none is installed
   */
  static Optional<List<String>> find(String given) {
    return LocalClickHouse.find(given);
  }

  /**
   * Starts a server ({@link LocalClickHouse}: loopback ports, data in {@code dir}) and waits until
   * it answers.
   *
   * @param command from {@link #find}
   * @param dir an empty folder for its configuration, data and log
   * @param http unused: the server has its own client
   * @return the running server
   */
  static ClickHouse start(List<String> command, Path dir, Http http)
      throws IOException, InterruptedException {
    return new ClickHouse(LocalClickHouse.start(command, dir));
  }

  /**
   * @return the server's process id
   */
  long pid() {
    return server.pid();
  }

  /**
   * @return the URL of its HTTP interface
   */
  String url() {
    return server.url();
  }

  /**
   * @param sql a statement
   * @return its answer's body
   * @throws IllegalStateException when ClickHouse answers with an error (its text)
   */
  String query(String sql) throws IOException, InterruptedException {
    return server.query(sql);
  }

  /**
   * @param sql a statement
   * @param settings URL parameters ({@code name=value&...}), or empty
   * @return its answer's body
   */
  String query(String sql, String settings) throws IOException, InterruptedException {
    return new String(select(sql, settings), StandardCharsets.UTF_8);
  }

  /**
   * @param sql a query
   * @param settings URL parameters ({@code name=value&...}), or empty
   * @return its answer's body as received (timing it includes receiving it, not decoding it)
   */
  byte[] select(String sql, String settings) throws IOException, InterruptedException {
    return server.select(sql, settings);
  }

  /**
   * Runs a query on a connection of the harness's own client, the one its queries are timed with.
   *
   * @param client a connection to this server
   * @param sql a query
   * @return the answer's body as received
   * @throws IllegalStateException when ClickHouse answers with an error (its text)
   */
  static byte[] select(PlainHttp client, String sql) throws IOException {
    PlainHttp.Answer a = client.post("/", Map.of(), sql.getBytes(StandardCharsets.UTF_8));
    if (a.status() != 200) {
      throw new IllegalStateException("ClickHouse answered " + a.status() + ": " + a.text());
    }
    return a.body();
  }

  /** Creates the table (LowCardinality needs the experimental switch in 18.x). */
  void createTable() throws IOException, InterruptedException {
    query(CREATE_TABLE, "allow_experimental_low_cardinality_type=1");
  }

  /**
   * Loads an NDJSON file with {@code INSERT ... FORMAT JSONEachRow}: the file split at line ends
   * into {@code inserts} parts of about equal size, each sent as one request, all at once on their
   * own connections, from the page cache as Chartwell's load is ({@link PlainHttp}).
   *
   * @param file the file
   * @param inserts how many concurrent {@code INSERT}s (at least 1)
   * @return seconds from sending to the last answer
   */
  double load(Path file, int inserts) throws Exception {
    String query =
        java.net.URLEncoder.encode(
            "INSERT INTO " + TABLE + " FORMAT JSONEachRow",
            java.nio.charset.StandardCharsets.UTF_8);
    long[] bounds = lineBounds(file, inserts);
    java.util.concurrent.ExecutorService senders =
        java.util.concurrent.Executors.newFixedThreadPool(inserts);
    try {
      long start = System.nanoTime();
      List<java.util.concurrent.Future<?>> sent = new java.util.ArrayList<>();
      for (int i = 0; i < inserts; i++) {
        long from = bounds[i];
        long to = bounds[i + 1];
        if (to == from) {
          continue; // fewer lines than INSERTs
        }
        sent.add(
            senders.submit(
                () -> {
                  try (java.nio.channels.FileChannel channel =
                          java.nio.channels.FileChannel.open(file);
                      PlainHttp sender = new PlainHttp(java.net.URI.create(server.url()))) {
                    PlainHttp.Answer a =
                        sender.post(
                            "/?input_format_skip_unknown_fields=1&query=" + query,
                            java.util.Map.of(),
                            channel,
                            from,
                            to - from);
                    if (a.status() != 200) {
                      throw new IllegalStateException(
                          "ClickHouse refused the insert: " + a.status() + " " + a.text());
                    }
                  }
                  return null;
                }));
      }
      for (java.util.concurrent.Future<?> f : sent) {
        try {
          f.get();
        } catch (java.util.concurrent.ExecutionException e) {
          throw e.getCause() instanceof Exception cause ? cause : e;
        }
      }
      return (System.nanoTime() - start) / 1e9;
    } finally {
      senders.shutdownNow();
    }
  }

  /**
   * @param file an NDJSON file
   * @param parts how many parts
   * @return {@code parts + 1} offsets: part {@code i} is {@code [bounds[i], bounds[i + 1])}, each
   *     boundary just after a line end (or at the file's end), so every part holds whole lines
   */
  static long[] lineBounds(Path file, int parts) throws IOException {
    if (parts < 1) {
      throw new IllegalArgumentException("at least one INSERT, not " + parts);
    }
    long size = java.nio.file.Files.size(file);
    long[] bounds = new long[parts + 1];
    bounds[parts] = size;
    try (java.nio.channels.FileChannel channel = java.nio.channels.FileChannel.open(file)) {
      java.nio.ByteBuffer buf = java.nio.ByteBuffer.allocate(64 << 10);
      for (int i = 1; i < parts; i++) {
        long at = Math.max(bounds[i - 1], size * i / parts);
        bounds[i] = size;
        scan:
        while (at < size) {
          buf.clear();
          int n = channel.read(buf, at);
          for (int j = 0; j < n; j++) {
            if (buf.get(j) == '\n') {
              bounds[i] = at + j + 1;
              break scan;
            }
          }
          at += n;
        }
      }
    }
    return bounds;
  }

  /**
   * @return rows, active parts and their bytes on disk, from {@code system.parts}
   */
  long[] parts() throws IOException, InterruptedException {
    String[] cells =
        query(
                "SELECT sum(rows), count(), sum(bytes_on_disk) FROM system.parts"
                    + " WHERE active AND database = 'default' AND table = '"
                    + TABLE
                    + "' FORMAT TabSeparated")
            .trim()
            .split("\t");
    return new long[] {
      Long.parseLong(cells[0]), Long.parseLong(cells[1]), Long.parseLong(cells[2])
    };
  }

  /**
   * @return the server's version
   */
  String version() throws IOException, InterruptedException {
    return server.version();
  }

  /** Stops the server (SIGTERM, then kill after 30 s). */
  @Override
  public void close() throws InterruptedException {
    server.close();
  }
}
