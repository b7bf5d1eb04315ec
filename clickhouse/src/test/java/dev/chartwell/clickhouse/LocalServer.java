package dev.chartwell.clickhouse;

import dev.chartwell.clickhouse.local.LocalClickHouse;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;

/** Starts the local ClickHouse of a test class, or skips the class loudly without the binary. */
final class LocalServer {
  private LocalServer() {}

  /**
   * @param testClass the test class, named in the skip message
   * @return the command that starts a server
   */
  static List<String> commandOrSkip(Class<?> testClass) {
    Optional<List<String>> command = LocalClickHouse.find(null);
    if (command.isEmpty()) {
      String message = LocalClickHouse.skipMessage(testClass.getSimpleName());
      System.err.println(message);
      Assumptions.abort(message);
    }
    return command.get();
  }

  /**
   * @param testClass the test class
   * @return a server with user {@code default} and no password
   */
  static LocalClickHouse start(Class<?> testClass) throws Exception {
    List<String> command = commandOrSkip(testClass);
    Path dir = Files.createTempDirectory("chartwell-ch-" + testClass.getSimpleName());
    return LocalClickHouse.start(command, dir);
  }

  /**
   * @param server a running server
   * @param name the connection's name
   * @return a client of it
   */
  static ClickHouseClient client(LocalClickHouse server, String name) {
    return new ClickHouseClient(
        new ClickHouseConnection(name, URI.create(server.url()), "default", "", null));
  }
}
