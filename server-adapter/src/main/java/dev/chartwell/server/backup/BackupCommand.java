package dev.chartwell.server.backup;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.chartwell.server.store.Collection;
import dev.chartwell.server.store.DataDirectory;
import dev.chartwell.server.store.DocumentStore;
import dev.chartwell.server.store.Secrets;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code backup} and {@code restore} subcommands of {@code chartwell-server.jar}:
 *
 * <pre>
 * backup  --data-dir DIR --to BACKUP-DIR [--secrets-key-file FILE]
 * restore --from BACKUP-DIR [--backup ID] --data-dir NEW-DIR
 * </pre>
 *
 * {@code backup} takes the data directory's lock, so it refuses a directory a running server holds
 * (that one is backed up through {@code POST /api/v2/admin/backup}).
 */
public final class BackupCommand {
  /** Exit status for unusable arguments. */
  static final int EXIT_USAGE = 2;

  /** Exit status when the backup or restore failed. */
  static final int EXIT_FAILED = 1;

  /** The usage lines of both subcommands. */
  public static final String USAGE =
      "Usage: java -jar chartwell-server.jar backup --data-dir DIR --to BACKUP-DIR"
          + " [--secrets-key-file FILE]\n"
          + "       java -jar chartwell-server.jar restore --from BACKUP-DIR [--backup ID]"
          + " --data-dir NEW-DIR\n";

  private BackupCommand() {}

  /**
   * @param args the arguments after {@code backup}
   * @param out where the result goes
   * @param err where problems go
   * @return the exit status
   */
  public static int backup(String[] args, PrintStream out, PrintStream err) {
    if (helpAsked(args, out)) {
      return 0;
    }
    Map<String, String> a;
    try {
      a = parse(args, Set.of("data-dir", "to", "secrets-key-file"), Set.of("data-dir", "to"));
    } catch (IllegalArgumentException e) {
      return usage(err, "backup: " + e.getMessage());
    }
    Path dataDir = Path.of(a.get("data-dir")).toAbsolutePath().normalize();
    if (!Files.isDirectory(dataDir)) {
      err.println("chartwell: backup: " + dataDir + " is not a data directory (it does not exist)");
      return EXIT_FAILED;
    }
    ObjectMapper mapper = new ObjectMapper();
    try (DataDirectory dir = DataDirectory.open(dataDir)) {
      Path keyFile =
          Optional.ofNullable(a.get("secrets-key-file"))
              .map(Path::of)
              .orElse(dir.root().resolve(Secrets.KEY_FILE));
      ObjectNode d =
          new BackupWriter(
                  new BackupTarget(Path.of(a.get("to")), mapper), mapper, Clock.systemUTC())
              .write(dir.root(), keyFile, c -> stored(dir.root(), c));
      out.println(summary("backup", d, Path.of(a.get("to"))));
      return 0;
    } catch (IOException | RuntimeException e) {
      String msg = String.valueOf(e.getMessage());
      if (msg.contains("is in use by another Chartwell server")) {
        msg +=
            ": a running server is backed up through it: POST /api/v2/admin/backup with an"
                + " admin key (the server needs --backup-dir)";
      }
      err.println("chartwell: backup failed: " + msg);
      return EXIT_FAILED;
    }
  }

  /**
   * @param args the arguments after {@code restore}
   * @param out where the result goes
   * @param err where problems go
   * @return the exit status
   */
  public static int restore(String[] args, PrintStream out, PrintStream err) {
    if (helpAsked(args, out)) {
      return 0;
    }
    Map<String, String> a;
    try {
      a = parse(args, Set.of("from", "backup", "data-dir"), Set.of("from", "data-dir"));
    } catch (IllegalArgumentException e) {
      return usage(err, "restore: " + e.getMessage());
    }
    Path from = Path.of(a.get("from"));
    try {
      ObjectNode d =
          new Restorer(new BackupTarget(from, new ObjectMapper()))
              .restore(Optional.ofNullable(a.get("backup")), Path.of(a.get("data-dir")));
      out.println(summary("restored", d, from) + " into " + a.get("data-dir"));
      return 0;
    } catch (IOException | RuntimeException e) {
      err.println("chartwell: restore failed: " + e.getMessage());
      return EXIT_FAILED;
    }
  }

  /** A stopped server's store, opened for the read and closed again (none: no documents). */
  private static Map<String, String> stored(Path dataDir, Collection c) throws IOException {
    if (!Files.exists(dataDir.resolve(c.fileName()))) {
      return Map.of();
    }
    try (DocumentStore store = DocumentStore.open(dataDir, c)) {
      return store.entries();
    }
  }

  private static String summary(String what, ObjectNode d, Path folder) {
    long events = 0;
    for (var s : d.path("sources")) {
      events += s.path("events").asLong();
    }
    return what
        + " "
        + d.path("id").asText()
        + " ("
        + d.path("type").asText()
        + ", "
        + d.path("sources").size()
        + " sources, "
        + events
        + " events, "
        + d.path("bytesWritten").asLong()
        + " bytes written) in "
        + folder.toAbsolutePath().normalize();
  }

  private static boolean helpAsked(String[] args, PrintStream out) {
    for (String a : args) {
      if (a.equals("--help") || a.equals("-h")) {
        out.print(USAGE);
        return true;
      }
    }
    return false;
  }

  private static int usage(PrintStream err, String problem) {
    err.println("chartwell: " + problem);
    err.print(USAGE);
    return EXIT_USAGE;
  }

  /** {@code --name value} or {@code --name=value}, each known and given once. */
  static Map<String, String> parse(String[] args, Set<String> known, Set<String> required) {
    Map<String, String> out = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if (!arg.startsWith("--")) {
        throw new IllegalArgumentException("unexpected argument '" + arg + "'");
      }
      int eq = arg.indexOf('=');
      String name = arg.substring(2, eq < 0 ? arg.length() : eq);
      if (!known.contains(name)) {
        throw new IllegalArgumentException("unknown flag --" + name);
      }
      String value;
      if (eq >= 0) {
        value = arg.substring(eq + 1);
      } else if (i + 1 < args.length) {
        value = args[++i];
      } else {
        throw new IllegalArgumentException("--" + name + " needs a value");
      }
      if (value.isBlank()) {
        throw new IllegalArgumentException("--" + name + " needs a value");
      }
      if (out.put(name, value) != null) {
        throw new IllegalArgumentException("--" + name + " is given more than once");
      }
    }
    for (String r : required) {
      if (!out.containsKey(r)) {
        throw new IllegalArgumentException("--" + r + " is required");
      }
    }
    return out;
  }
}
