package dev.chartwell.server.store;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The other process of {@link DataDirectoryLockTest}: tries to open a server's data directory a
 * number of times and prints each outcome, {@code outcome opened} or {@code outcome refused
 * <message>}.
 */
final class DataDirectoryOpenChild {
  private DataDirectoryOpenChild() {}

  /**
   * @param args the data directory and how many opens to try
   */
  public static void main(String[] args) {
    Path dir = Path.of(args[0]);
    int attempts = Integer.parseInt(args[1]);
    for (int i = 0; i < attempts; i++) {
      try (DataDirectory opened = DataDirectory.open(dir)) {
        System.out.println("outcome opened");
      } catch (IOException e) {
        System.out.println("outcome refused " + e.getMessage());
      }
    }
    System.out.flush();
  }
}
