package dev.chartwell.server;

import dev.chartwell.server.backup.BackupCommand;
import dev.chartwell.server.http.FatalErrors;
import dev.chartwell.server.warmup.WarmUp;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.logging.Level;
import java.util.logging.Logger;
import sun.misc.Signal;

/**
 * {@code java -jar chartwell-server.jar [serve|backup|restore] [flags]}: {@code serve} (the
 * default) parses flags and environment, starts the server, prints where it listens, and on SIGTERM
 * or Ctrl-C shuts down gracefully and exits 0; {@code backup} and {@code restore} are {@link
 * BackupCommand}; {@code ingest FILE} sends a file of events to a running server ({@link
 * IngestCommand}); {@code --version} prints the version and build commit. Bad flags print one line
 * and exit 2.
 */
public final class Main {
  /** Exit status for unusable flags or environment. */
  public static final int EXIT_USAGE = 2;

  /** Exit status when the server cannot start (data directory, port). */
  public static final int EXIT_START_FAILED = 1;

  /**
   * Chronicle reports its start-up at INFO through java.util.logging; only its warnings matter to a
   * user. Held here because java.util.logging keeps loggers only weakly.
   */
  private static final Logger CHRONICLE_LOG = Logger.getLogger("net.openhft");

  private Main() {}

  /**
   * @param args command-line flags
   */
  public static void main(String[] args) {
    // Before any Chronicle class is loaded: Chronicle must never phone home.
    System.setProperty("chronicle.analytics.disable", "true");
    System.setProperty("chronicle.announcer.disable", "true");
    CHRONICLE_LOG.setLevel(Level.WARNING);
    Thread.setDefaultUncaughtExceptionHandler(new FatalErrors(System.err));
    CountDownLatch stop = new CountDownLatch(1);
    int code = run(args, System.getenv(), System.out, System.err, stop, () -> installSignals(stop));
    System.exit(code);
  }

  /**
   * Runs the server until {@code stop} is released.
   *
   * @param args flags
   * @param env environment
   * @param out where the banner goes
   * @param err where errors go
   * @param stop released to shut down
   * @param onStarted called once the server is serving
   * @return the process exit status
   */
  static int run(
      String[] args,
      Map<String, String> env,
      PrintStream out,
      PrintStream err,
      CountDownLatch stop,
      Runnable onStarted) {
    boolean named = args.length > 0 && !args[0].startsWith("-");
    String command = named ? args[0] : "serve";
    String[] rest = named ? Arrays.copyOfRange(args, 1, args.length) : args;
    if (Arrays.asList(rest).contains("--version")) {
      out.println(Version.current().line());
      return 0;
    }
    switch (command) {
      case "serve":
        return serve(rest, env, out, err, stop, onStarted);
      case "backup":
        return BackupCommand.backup(rest, out, err);
      case "restore":
        return BackupCommand.restore(rest, out, err);
      case "ingest":
        return IngestCommand.run(rest, out, err);
      default:
        err.println(
            "chartwell: unknown command '"
                + command
                + "': the commands are serve (the default), ingest, backup and restore (see --help)");
        return EXIT_USAGE;
    }
  }

  private static int serve(
      String[] args,
      Map<String, String> env,
      PrintStream out,
      PrintStream err,
      CountDownLatch stop,
      Runnable onStarted) {
    ServerConfig config;
    try {
      config = ServerConfig.parse(args, env);
    } catch (ServerConfig.HelpRequested h) {
      out.print(ServerConfig.usage());
      out.print("\n" + BackupCommand.USAGE);
      out.print("\n" + IngestCommand.usage());
      return 0;
    } catch (ConfigException e) {
      err.println("chartwell: " + e.getMessage() + " (see --help)");
      return EXIT_USAGE;
    }
    if (config.logFormat() == ServerConfig.LogFormat.JSON) {
      out = JsonLog.over(out, java.time.Clock.systemUTC());
      err = JsonLog.over(err, java.time.Clock.systemUTC());
    }
    ChartwellServer server;
    try {
      server = ChartwellServer.start(config, err);
    } catch (IOException | RuntimeException e) {
      err.println("chartwell: cannot start: " + oneLine(e));
      return EXIT_START_FAILED;
    }
    // Before the banner names the port: a signal sent as soon as a client sees it must stop the
    // server cleanly (stores closed), not through the JVM's default handling.
    onStarted.run();
    for (String line : server.banner()) {
      if (config.logFormat() == ServerConfig.LogFormat.TEXT) {
        out.println(line);
      } else if (!JsonLog.isSecret(line)) {
        out.println(line);
      } else if (line.startsWith("admin key secret")) {
        try {
          Path kept = keepSecret(config.dataDir(), line.substring(line.lastIndexOf(' ') + 1));
          out.println(
              "admin key secret: not written to JSON logs; it is in "
                  + kept
                  + " (owner-only): store it, then delete the file");
        } catch (IOException e) {
          err.println("chartwell: error: cannot keep the generated admin key secret: " + e);
        }
      }
    }
    out.flush();
    PrintStream progress = err;
    WarmUp warmUp = WarmUp.start(config, server, line -> progress.println("chartwell: " + line));
    try {
      stop.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (warmUp != null) {
      warmUp.close();
    }
    try {
      server.close();
    } catch (IOException e) {
      err.println("chartwell: error while shutting down: " + oneLine(e));
      return EXIT_START_FAILED;
    }
    out.println("Chartwell stopped");
    return 0;
  }

  /** The file a generated admin key secret is kept in when the logs are JSON. */
  static final String ADMIN_SECRET_FILE = "admin-key-secret";

  private static Path keepSecret(Path dataDir, String secret) throws IOException {
    Path f = dataDir.resolve(ADMIN_SECRET_FILE);
    Files.deleteIfExists(f);
    try (java.nio.channels.FileChannel ch =
        dev.chartwell.engine.internal.storage.OwnerOnly.open(
            f,
            java.nio.file.StandardOpenOption.CREATE_NEW,
            java.nio.file.StandardOpenOption.WRITE)) {
      ch.write(
          java.nio.ByteBuffer.wrap(
              (secret + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    }
    return f;
  }

  private static void installSignals(CountDownLatch stop) {
    for (String name : new String[] {"TERM", "INT"}) {
      try {
        Signal.handle(new Signal(name), sig -> stop.countDown());
      } catch (IllegalArgumentException e) {
        // Signal not available on this platform; the default handling applies.
      }
    }
  }

  private static String oneLine(Throwable e) {
    String msg = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    return msg.replaceAll("\\s+", " ");
  }
}
