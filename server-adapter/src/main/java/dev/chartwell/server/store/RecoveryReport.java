package dev.chartwell.server.store;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Says in one line which stores were recovered after an unclean stop. Opening a store that a killed
 * process left open goes through Chronicle Map's recovery, which logs a warning for every lock it
 * releases; while the stores open, those warnings are counted here instead of printed, and folded
 * into the one line.
 */
public final class RecoveryReport implements AutoCloseable {
  private static final String MARKER = ".open";

  private final Logger chronicle = Logger.getLogger("net.openhft");
  private final List<String> stores;
  private final AtomicInteger warnings = new AtomicInteger();
  private final Handler counter =
      new Handler() {
        @Override
        public void publish(LogRecord record) {
          warnings.incrementAndGet();
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
      };
  private final boolean parentHandlers;

  private RecoveryReport(List<String> stores) {
    this.stores = stores;
    this.parentHandlers = chronicle.getUseParentHandlers();
    if (!stores.isEmpty()) {
      chronicle.addHandler(counter);
      chronicle.setUseParentHandlers(false);
    }
  }

  /**
   * Looks for the stores a previous process left open, and starts counting Chronicle's warnings if
   * there are any. Call before opening the stores; close after.
   *
   * @param dataDir the data directory
   * @return the report
   * @throws IOException when the directory cannot be listed
   */
  public static RecoveryReport begin(Path dataDir) throws IOException {
    List<String> stores = new ArrayList<>();
    if (Files.isDirectory(dataDir)) {
      try (DirectoryStream<Path> markers = Files.newDirectoryStream(dataDir, "*" + MARKER)) {
        for (Path m : markers) {
          String name = m.getFileName().toString();
          stores.add(name.substring(0, name.length() - MARKER.length()));
        }
      }
    }
    stores.sort(null);
    return new RecoveryReport(stores);
  }

  /**
   * @return the line to print, when stores were recovered
   */
  public Optional<String> line() {
    if (stores.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        "recovered after an unclean stop: "
            + String.join(", ", stores)
            + " (locks left by the previous process released"
            + (warnings.get() == 0 ? ")" : "; " + warnings.get() + " storage warnings folded)"));
  }

  @Override
  public void close() {
    if (!stores.isEmpty()) {
      chronicle.removeHandler(counter);
      chronicle.setUseParentHandlers(parentHandlers);
    }
  }
}
