package dev.chartwell.server;

import java.nio.file.Path;

/**
 * The child of {@link BackupCrashTest}: a server on {@code args[0]} with {@code --backup-dir
 * args[1]}; prints {@code port <n>} and serves until it is killed (or its parent goes).
 */
public final class BackupCrashChild {
  private BackupCrashChild() {}

  /**
   * @param args the data directory and the backup folder
   */
  public static void main(String[] args) throws Exception {
    Thread guard =
        new Thread(
            () -> {
              try {
                while (System.in.read() >= 0) {
                  // the parent never writes; end of input means it is gone
                }
              } catch (java.io.IOException e) {
                // as end of input
              }
              Runtime.getRuntime().halt(3);
            });
    guard.setDaemon(true);
    guard.start();
    ChartwellServer server =
        TestServers.start(
            Path.of(args[0]), "--backup-dir", args[1], "--max-memory", "16m", "--threads", "2");
    System.out.println("port " + server.port());
    System.out.flush();
    Thread.sleep(Long.MAX_VALUE);
  }
}
