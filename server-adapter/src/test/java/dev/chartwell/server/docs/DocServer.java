package dev.chartwell.server.docs;

import dev.chartwell.server.ChartwellServer;
import dev.chartwell.server.ServerConfig;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/**
 * The server a document starts with {@code java -jar .../chartwell-server.jar FLAGS}, run in the
 * test's JVM with those flags, except: every port the docs name (8080 when none) is a free one, the
 * files and folders the flags name (relative or absolute) are under the document's temporary
 * folder, and API key secrets are hashed at the lowest cost. Everything else is as a reader's
 * server: service transitions take their second, as the docs' polling expects.
 */
final class DocServer implements AutoCloseable {
  private static final List<String> PORTS = List.of("port", "otlp-port", "elasticsearch-port");
  private static final List<String> PATHS =
      List.of("data-dir", "backup-dir", "tls-cert", "tls-key", "secrets-key-file");

  final ChartwellServer server;

  /** What the start printed: its log lines, then the banner (as a terminal shows them). */
  final String printed;

  /** A port the docs show → the port the server listens on. */
  final Map<String, String> ports = new LinkedHashMap<>();

  private DocServer(ChartwellServer server, String printed) {
    this.server = server;
    this.printed = printed;
  }

  /**
   * @param flags the flags after the jar, as the docs give them
   * @param env the {@code CHARTWELL_*} variables the command line sets
   * @param dir the document's temporary folder (the docs' working directory)
   */
  static DocServer start(List<String> flags, Map<String, String> env, Path dir) throws Exception {
    List<String> args = new ArrayList<>();
    Map<String, String> shownPorts = new LinkedHashMap<>();
    shownPorts.put("port", "8080");
    boolean dataDir = false;
    boolean iterations = false;
    for (int i = 0; i < flags.size(); i++) {
      String flag = flags.get(i);
      String name = flag.startsWith("--") ? flag.substring(2).split("=", 2)[0] : "";
      String value = null;
      if (flag.contains("=")) {
        value = flag.substring(flag.indexOf('=') + 1);
      } else if (PORTS.contains(name) || PATHS.contains(name)) {
        value = flags.get(++i);
      }
      if (PORTS.contains(name)) {
        shownPorts.put(name, value);
        args.add("--" + name + "=0");
      } else if (PATHS.contains(name)) {
        dataDir |= name.equals("data-dir");
        args.add("--" + name + "=" + under(dir, value));
      } else {
        iterations |= name.equals("key-hash-iterations");
        args.add(flag);
      }
    }
    if (args.stream().noneMatch(a -> a.startsWith("--port="))) {
      args.add("--port=0");
    }
    if (!dataDir) {
      args.add("--data-dir=" + dir.resolve("chartwell-data"));
    }
    if (!iterations) {
      args.add("--key-hash-iterations=1000");
    }
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    ServerConfig config = ServerConfig.parse(args.toArray(String[]::new), env);
    ChartwellServer server =
        ChartwellServer.start(
            config,
            new PrintStream(log, true, StandardCharsets.UTF_8),
            ChartwellServer.Overrides.NONE);
    StringBuilder printed = new StringBuilder(log.toString(StandardCharsets.UTF_8));
    server.banner().forEach(l -> printed.append(l).append('\n'));
    // paths as a server started in the docs' working directory prints them
    DocServer s = new DocServer(server, printed.toString().replace(dir + "/", ""));
    s.ports.put(shownPorts.get("port"), Integer.toString(server.port()));
    s.map(shownPorts.get("otlp-port"), server.otlpPort());
    s.map(shownPorts.get("elasticsearch-port"), server.elasticsearchPort());
    return s;
  }

  private void map(String shown, OptionalInt real) {
    if (shown != null && real.isPresent()) {
      ports.put(shown, Integer.toString(real.getAsInt()));
    }
  }

  /** A path of the docs, relative or absolute, inside the document's folder. */
  static Path under(Path dir, String path) {
    return dir.resolve(path.replaceFirst("^/+", "")).normalize();
  }

  /** A command with the docs' ports ({@code 127.0.0.1:8080}, {@code localhost:4318}) made real. */
  String apply(String command) {
    String out = command;
    for (Map.Entry<String, String> p : ports.entrySet()) {
      out = out.replaceAll("(?<=(127\\.0\\.0\\.1|localhost):)" + p.getKey() + "\\b", p.getValue());
    }
    return out;
  }

  @Override
  public void close() throws java.io.IOException {
    server.close();
  }
}
