package dev.chartwell.server;

import dev.chartwell.engine.Engine;
import dev.chartwell.engine.internal.storage.Durable;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Serves the HTTP API and the web UI over an engine the application already holds, in its own
 * process: {@code ChartwellServer.embedded(engine).port(8080).start()}.
 *
 * <p><b>What it serves.</b> Everything the standalone server serves (the web UI at {@code /}, the
 * chart, search and ingestion API, OTLP/HTTP, the management API, alerts), over one organization
 * with one running service (named {@code embedded} unless {@link #serviceName} says otherwise). The
 * engine's sources that the server does not list yet (what the Logback, Log4j 2 and Micrometer
 * integrations create, or the application itself) are listed as tables of the service's warehouse,
 * named after their ids, at start and every two seconds ({@link
 * ChartwellServer#adoptEngineSources()} looks at once): {@code otel_logs} gets the {@code Logs}
 * source, the {@code otel_metrics_*} tables the {@code Metrics} source, any other log source a
 * source named after it. The server never drops or closes the application's sources or engine.
 *
 * <p><b>How it authenticates.</b> As the standalone server: the web UI and the management API take
 * an admin API key (HTTP Basic, key id and secret), the chart, search and ingestion API the
 * service's token (Bearer). Give the key with {@link #apiKey}; otherwise one is generated on the
 * first start over a state directory. Both, and the service's token (a new one at each start), are
 * in {@link ChartwellServer#access()} and logged at INFO (the secret only when generated) through
 * {@code System.Logger} {@code dev.chartwell.server.ChartwellServer}. It listens on {@code
 * 127.0.0.1} unless {@link #host} says otherwise.
 *
 * <p><b>Where its state is.</b> Its management state (organization, keys, service, sources,
 * dashboards, alerts) is kept in {@link #stateDirectory} (locked while the server runs), or,
 * without one, in a temporary directory deleted when the server closes: dashboards then last one
 * run.
 *
 * <p><b>JVM flags.</b> The management state is kept in Chronicle Map, which needs these options on
 * the application's command line (the engine and the integrations need none):
 *
 * <pre>
 * --add-exports=java.base/jdk.internal.ref=ALL-UNNAMED --add-exports=java.base/sun.nio.ch=ALL-UNNAMED
 * --add-exports=jdk.unsupported/sun.misc=ALL-UNNAMED --add-exports=jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED
 * --add-opens=jdk.compiler/com.sun.tools.javac=ALL-UNNAMED --add-opens=java.base/java.lang=ALL-UNNAMED
 * --add-opens=java.base/java.lang.reflect=ALL-UNNAMED --add-opens=java.base/java.io=ALL-UNNAMED
 * --add-opens=java.base/java.util=ALL-UNNAMED --add-opens=java.base/java.nio=ALL-UNNAMED
 * </pre>
 *
 * (or the same as {@code Add-Exports} and {@code Add-Opens} attributes of an executable jar's
 * manifest). Without them {@link #start()} refuses to start, naming the ones missing. Chronicle's
 * usage analytics are switched off before it loads.
 */
public final class EmbeddedServer {
  private final Engine engine;
  private String host = "127.0.0.1";
  private int port = 8080;
  private Path stateDirectory;
  private String keyId;
  private String secret;
  private String serviceName = "embedded";
  private Path tlsCert;
  private Path tlsKey;

  EmbeddedServer(Engine engine) {
    this.engine = Objects.requireNonNull(engine, "engine");
  }

  /**
   * @param host the address to listen on (default {@code 127.0.0.1}; {@code 0.0.0.0} exposes it:
   *     then give it {@link #tls})
   * @return this
   */
  public EmbeddedServer host(String host) {
    this.host = Objects.requireNonNull(host, "host");
    return this;
  }

  /**
   * @param port the TCP port (default 8080; {@code 0} picks a free one, see {@link
   *     ChartwellServer#port()})
   * @return this
   */
  public EmbeddedServer port(int port) {
    this.port = port;
    return this;
  }

  /**
   * @param dir where the management state is kept across starts (default: a temporary directory
   *     deleted at close); not the engine's data directory
   * @return this
   */
  public EmbeddedServer stateDirectory(Path dir) {
    this.stateDirectory = Objects.requireNonNull(dir, "dir");
    return this;
  }

  /**
   * @param keyId the admin key's id (the UI's "key id", HTTP Basic user name)
   * @param secret its secret: 8 to 256 printable characters without spaces (the Basic password)
   * @return this
   */
  public EmbeddedServer apiKey(String keyId, String secret) {
    this.keyId = Objects.requireNonNull(keyId, "keyId");
    this.secret = Objects.requireNonNull(secret, "secret");
    return this;
  }

  /**
   * @param name the name of the one service (default {@code embedded})
   * @return this
   */
  public EmbeddedServer serviceName(String name) {
    this.serviceName = Objects.requireNonNull(name, "name");
    return this;
  }

  /**
   * Serves HTTPS, as {@code --tls-cert} and {@code --tls-key} do: the files are PEM and re-read
   * when they change (see docs/running.md, "Exposing the server").
   *
   * @param certFile the certificate chain, the server's certificate first
   * @param keyFile its private key
   * @return this
   */
  public EmbeddedServer tls(Path certFile, Path keyFile) {
    this.tlsCert = Objects.requireNonNull(certFile, "certFile");
    this.tlsKey = Objects.requireNonNull(keyFile, "keyFile");
    return this;
  }

  /**
   * Starts serving.
   *
   * @return the running server; close it before the engine
   * @throws IOException when the port or the state directory cannot be used
   * @throws IllegalArgumentException when a setting is not usable (for example a short secret)
   * @throws IllegalStateException when the JVM lacks the options Chronicle Map needs (the message
   *     names them)
   */
  public ChartwellServer start() throws IOException {
    List<String> missing = missingJvmOptions();
    if (!missing.isEmpty()) {
      throw new IllegalStateException(
          "the embedded server keeps its state in Chronicle Map, which needs JVM options this"
              + " process was started without: "
              + String.join(" ", missing)
              + " (see EmbeddedServer's documentation for the whole list)");
    }
    // Before any Chronicle class is loaded: Chronicle must never phone home.
    System.setProperty("chronicle.analytics.disable", "true");
    System.setProperty("chronicle.announcer.disable", "true");
    Path dir = stateDirectory;
    Runnable cleanup = () -> {};
    if (dir == null) {
      Path temp = Files.createTempDirectory("chartwell-embedded-");
      dir = temp;
      cleanup = () -> deleteTree(temp);
    }
    List<String> args = new ArrayList<>();
    args.addAll(List.of("--host", host, "--port", Integer.toString(port)));
    args.addAll(List.of("--data-dir", dir.toString()));
    if (keyId != null) {
      args.addAll(List.of("--api-key", keyId + ":" + secret));
    }
    if (tlsCert != null) {
      args.addAll(List.of("--tls-cert", tlsCert.toString(), "--tls-key", tlsKey.toString()));
    }
    ServerConfig config;
    try {
      config = ServerConfig.parse(args.toArray(String[]::new), Map.of());
    } catch (ConfigException e) {
      cleanup.run();
      throw new IllegalArgumentException(e.getMessage(), e);
    } catch (ServerConfig.HelpRequested e) {
      cleanup.run();
      throw new IllegalStateException(e);
    }
    System.Logger logger = System.getLogger(ChartwellServer.class.getName());
    PrintStream log = new PrintStream(new LineLogger(logger), true, StandardCharsets.UTF_8);
    ChartwellServer server;
    try {
      server =
          ChartwellServer.start(
              config, log, ChartwellServer.Overrides.NONE, engine, serviceName, cleanup);
    } catch (IOException | RuntimeException e) {
      cleanup.run();
      throw e;
    }
    for (String line : server.banner()) {
      logger.log(System.Logger.Level.INFO, line);
    }
    return server;
  }

  /** The packages Chronicle Map reaches into: opened, or exported, to this (unnamed) module. */
  private static final List<String> OPENED =
      List.of("java.lang", "java.lang.reflect", "java.io", "java.util", "java.nio");

  private static final List<String> EXPORTED = List.of("jdk.internal.ref", "sun.nio.ch");

  /**
   * @return the {@code --add-opens} and {@code --add-exports} options of {@code java.base} that
   *     Chronicle Map needs and this process lacks
   */
  static List<String> missingJvmOptions() {
    Module base = Object.class.getModule();
    Module self = EmbeddedServer.class.getModule();
    List<String> missing = new ArrayList<>();
    for (String p : OPENED) {
      if (!base.isOpen(p, self)) {
        missing.add("--add-opens=java.base/" + p + "=ALL-UNNAMED");
      }
    }
    for (String p : EXPORTED) {
      if (!base.isExported(p, self)) {
        missing.add("--add-exports=java.base/" + p + "=ALL-UNNAMED");
      }
    }
    return missing;
  }

  private static void deleteTree(Path root) {
    try {
      Durable.deleteTree(root);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete the embedded server's state " + root, e);
    }
  }

  /** Lines written to the server's log stream, as warnings of a {@code System.Logger}. */
  private static final class LineLogger extends OutputStream {
    private final System.Logger logger;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream();

    LineLogger(System.Logger logger) {
      this.logger = logger;
    }

    @Override
    public synchronized void write(int b) {
      if (b == '\n') {
        logger.log(System.Logger.Level.WARNING, line.toString(StandardCharsets.UTF_8));
        line.reset();
      } else {
        line.write(b);
      }
    }
  }
}
