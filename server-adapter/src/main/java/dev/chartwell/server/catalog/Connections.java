package dev.chartwell.server.catalog;

import dev.chartwell.server.validation.Problems;

/**
 * The connections of a service. Every service has exactly one: {@value #BUILT_IN}, to its own
 * embedded engine. Its id is the same in every service (like ClickHouse's {@code default}
 * database), so that a source definition can be copied between services unchanged; a source created
 * without {@code connection} uses it.
 */
public final class Connections {
  /** The id of the built-in connection of every service. */
  public static final String BUILT_IN = "default";

  private Connections() {}

  /**
   * @param path the field's path
   * @param connection a connection id from a request
   * @param problems where the problem goes when it names no connection of the service
   */
  static void check(String path, String connection, Problems problems) {
    if (!BUILT_IN.equals(connection)) {
      problems.add(
          path,
          "unknown connection '"
              + connection
              + "'; a service has one connection, '"
              + BUILT_IN
              + "' (its embedded engine)");
    }
  }
}
