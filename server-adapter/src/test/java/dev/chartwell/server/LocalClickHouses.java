package dev.chartwell.server;

import dev.chartwell.clickhouse.local.LocalClickHouse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;

/**
 * A local {@code clickhouse-server} for a test class (one per class: starting one takes about a
 * second), or the class skipped, loudly, when the Debian package is not installed.
 */
public final class LocalClickHouses {
  private LocalClickHouses() {}

  /**
   * @param testClass the test class, named in the skip message
   * @param password the password of user {@code default} (empty: none)
   * @return a running server on loopback ports, with its own data directory
   */
  public static LocalClickHouse start(Class<?> testClass, String password) throws Exception {
    Optional<List<String>> command = LocalClickHouse.find(null);
    if (command.isEmpty()) {
      String message = LocalClickHouse.skipMessage(testClass.getSimpleName());
      System.err.println(message);
      Assumptions.abort(message);
    }
    Path dir = Files.createTempDirectory("chartwell-ch-" + testClass.getSimpleName());
    return LocalClickHouse.start(command.get(), dir, password);
  }
}
