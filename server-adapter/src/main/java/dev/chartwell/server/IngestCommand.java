package dev.chartwell.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * {@code java -jar chartwell-server.jar ingest FILE}: sends a file of NDJSON events (one JSON
 * object per line, {@code -} for standard input) through a running server's ingestion route, in
 * requests of at most {@link #CHUNK_BYTES}, and reports what was accepted and why lines were
 * refused, by their line numbers in the file. Where to send comes from the {@code --quickstart}
 * service kept in the data directory, or from {@code --url}, {@code --token} and {@code --source}.
 * Back-pressure answers (429, 503) are retried after their {@code Retry-After}.
 */
final class IngestCommand {
  /** The largest request body sent (whole lines; a longer line goes alone). */
  static final int CHUNK_BYTES = 4 << 20;

  private static final int MAX_ATTEMPTS = 20;
  private static final int ERRORS_SHOWN = 10;

  private final PrintStream out;
  private final PrintStream err;
  private final ObjectMapper mapper = new ObjectMapper();
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  private long accepted;
  private long rejected;
  private int shown;

  private IngestCommand(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
  }

  /**
   * @param args the arguments after {@code ingest}
   * @param out where the report goes
   * @param err where errors go
   * @return 0 when every line was accepted, 1 when some were refused or sending failed, 2 for bad
   *     arguments
   */
  static int run(String[] args, PrintStream out, PrintStream err) {
    Map<String, String> flags = new java.util.LinkedHashMap<>();
    String file = null;
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (a.equals("--help") || a.equals("-h")) {
        out.print(usage());
        return 0;
      }
      if (a.startsWith("--")) {
        if (i + 1 >= args.length) {
          return bad(err, a + " needs a value");
        }
        String name = a.substring(2);
        if (!java.util.Set.of("data-dir", "url", "token", "source").contains(name)) {
          return bad(err, "unknown flag " + a);
        }
        flags.put(name, args[++i]);
      } else if (file == null) {
        file = a;
      } else {
        return bad(err, "one file at a time (" + file + ", then " + a + ")");
      }
    }
    if (file == null) {
      return bad(err, "name the NDJSON file to send (- for standard input)");
    }
    IngestCommand c = new IngestCommand(out, err);
    try {
      QuickStart.Access to = c.target(flags);
      try (InputStream in = file.equals("-") ? System.in : Files.newInputStream(Path.of(file))) {
        return c.send(in, file, to);
      }
    } catch (IllegalArgumentException e) {
      return bad(err, e.getMessage());
    } catch (IOException e) {
      err.println("chartwell ingest: " + e.getMessage());
      return 1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      err.println("chartwell ingest: interrupted");
      return 1;
    }
  }

  static String usage() {
    return "Usage: java -jar chartwell-server.jar ingest FILE [--data-dir DIR]\n"
        + "       java -jar chartwell-server.jar ingest FILE --url URL --token TOKEN --source ID\n\n"
        + "Sends a file of NDJSON events (one JSON object per line; - for standard input) to a\n"
        + "running server. Without --url, --token and --source it sends to the log source of the\n"
        + "service made by --quickstart, as kept in DIR/quickstart.json (default ./chartwell-data).\n";
  }

  private static int bad(PrintStream err, String problem) {
    err.println("chartwell ingest: " + problem + " (see ingest --help)");
    return Main.EXIT_USAGE;
  }

  private QuickStart.Access target(Map<String, String> flags) throws IOException {
    if (flags.containsKey("url") || flags.containsKey("token") || flags.containsKey("source")) {
      for (String f : new String[] {"url", "token", "source"}) {
        if (!flags.containsKey(f)) {
          throw new IllegalArgumentException(
              "--url, --token and --source go together: --" + f + " is missing");
        }
      }
      return new QuickStart.Access(
          flags.get("url").replaceAll("/+$", ""), "", flags.get("source"), flags.get("token"));
    }
    Path dataDir =
        flags.containsKey("data-dir")
            ? Path.of(flags.get("data-dir"))
            : ServerConfig.DEFAULT_DATA_DIR;
    Optional<QuickStart.Access> kept = QuickStart.read(dataDir, mapper);
    if (kept.isEmpty()) {
      throw new IllegalArgumentException(
          dataDir.resolve(QuickStart.FILE)
              + " does not exist: start the server with --quickstart (and this --data-dir), or give"
              + " --url, --token and --source");
    }
    return kept.get();
  }

  private int send(InputStream in, String name, QuickStart.Access to)
      throws IOException, InterruptedException {
    ByteArrayOutputStream chunk = new ByteArrayOutputStream(CHUNK_BYTES);
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    long lineNo = 0;
    long chunkFirstLine = 1;
    byte[] buf = new byte[1 << 16];
    int n;
    while ((n = in.read(buf)) > 0) {
      for (int i = 0; i < n; i++) {
        line.write(buf[i]);
        if (buf[i] == '\n') {
          lineNo++;
          if (chunk.size() > 0 && chunk.size() + line.size() > CHUNK_BYTES) {
            post(chunk.toByteArray(), chunkFirstLine, to);
            chunk.reset();
            chunkFirstLine = lineNo;
          }
          line.writeTo(chunk);
          line.reset();
        }
      }
    }
    if (line.size() > 0) {
      lineNo++;
      line.write('\n');
      line.writeTo(chunk);
    }
    if (chunk.size() > 0) {
      post(chunk.toByteArray(), chunkFirstLine, to);
    }
    out.println(
        String.format(
            Locale.ROOT,
            "sent %,d lines of %s to %s: %,d events accepted, %,d lines refused",
            lineNo,
            name,
            to.eventsUrl(),
            accepted,
            rejected));
    return rejected == 0 ? 0 : 1;
  }

  private void post(byte[] body, long firstLine, QuickStart.Access to)
      throws IOException, InterruptedException {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(to.eventsUrl()))
            .timeout(Duration.ofMinutes(5))
            .header("Authorization", "Bearer " + to.token())
            .header("Content-Type", "application/x-ndjson")
            .POST(HttpRequest.BodyPublishers.ofByteArray(body))
            .build();
    for (int attempt = 1; ; attempt++) {
      HttpResponse<String> r;
      try {
        r = http.send(request, HttpResponse.BodyHandlers.ofString());
      } catch (java.net.ConnectException e) {
        throw new IOException(
            "cannot connect to " + to.url() + ": is the server running? (" + e.getMessage() + ")",
            e);
      }
      int status = r.statusCode();
      if ((status == 429 || status == 503) && attempt < MAX_ATTEMPTS) {
        long wait = r.headers().firstValueAsLong("Retry-After").orElse(1);
        Thread.sleep(Math.min(60, Math.max(1, wait)) * 1000);
        continue;
      }
      JsonNode answer = parse(r.body());
      if (status != 200) {
        throw new IOException(
            "the server answered "
                + status
                + " for lines "
                + firstLine
                + " on: "
                + answer.path("error").asText(r.body())
                + String.format(
                    Locale.ROOT, " (%,d events of earlier lines were accepted)", accepted));
      }
      accepted += answer.path("accepted").asLong();
      rejected += answer.path("rejected").asLong();
      for (JsonNode e : answer.path("errors")) {
        if (shown++ < ERRORS_SHOWN) {
          err.println(
              "line "
                  + (firstLine - 1 + e.path("line").asLong())
                  + ": "
                  + e.path("error").asText());
        }
      }
      return;
    }
  }

  private JsonNode parse(String body) {
    try {
      return mapper.readTree(body);
    } catch (IOException e) {
      return mapper.createObjectNode();
    }
  }
}
