package dev.chartwell.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A server, with what its tests set up in it, that cases of one test class share instead of each
 * starting its own: for cases that only send requests the server refuses, or that create nothing a
 * later case looks at. It is started on first use, in a data directory of its own, and closed (the
 * directory deleted) after the class's last test. Each class declares its own as a static field, so
 * nothing is shared across classes; the fixture is usually an instance of the test class set up by
 * the code that sets up a test's own server:
 *
 * <pre>{@code
 * @RegisterExtension
 * static final SharedServer<MyApiTest> SHARED =
 *     new SharedServer<>(MyApiTest::new, (t, dir) -> t.start(dir), MyApiTest::stop);
 * }</pre>
 *
 * @param <T> the shared fixture
 */
public final class SharedServer<T> implements AfterAllCallback {
  /** Sets the fixture up. */
  @FunctionalInterface
  public interface SetUp<T> {
    /**
     * @param fixture the fixture just created
     * @param dataDir an empty directory for its server's data
     */
    void setUp(T fixture, Path dataDir) throws Exception;
  }

  /** Closes the fixture. */
  @FunctionalInterface
  public interface Close<T> {
    /**
     * @param fixture the fixture, set up or (when its set-up failed) only partly
     */
    void close(T fixture) throws Exception;
  }

  private final Supplier<T> create;
  private final SetUp<T> setUp;
  private final Close<T> close;
  private Path dataDir;
  private T fixture;
  private Throwable failure;

  /**
   * @param create creates the fixture
   * @param setUp starts its server and sets up what the tests need in it
   * @param close closes it after the class's last test, or at once if its set-up failed
   */
  public SharedServer(Supplier<T> create, SetUp<T> setUp, Close<T> close) {
    this.create = create;
    this.setUp = setUp;
    this.close = close;
  }

  /**
   * @return the class's fixture, set up by the first call
   * @throws Exception if it cannot be set up (then every later call fails too, naming the cause)
   */
  public synchronized T get() throws Exception {
    if (failure != null) {
      throw new IllegalStateException(
          "the shared server failed to start in an earlier test", failure);
    }
    if (fixture == null) {
      T made = create.get();
      try {
        dataDir = Files.createTempDirectory("chartwell-shared-");
        setUp.setUp(made, dataDir);
      } catch (Exception | Error e) {
        failure = e;
        try {
          close.close(made);
        } catch (Exception | Error c) {
          e.addSuppressed(c);
        }
        throw e;
      }
      fixture = made;
    }
    return fixture;
  }

  @Override
  public synchronized void afterAll(ExtensionContext context) throws Exception {
    try {
      if (fixture != null) {
        close.close(fixture);
      }
    } finally {
      fixture = null;
      failure = null;
      if (dataDir != null) {
        deleteRecursively(dataDir);
        dataDir = null;
      }
    }
  }

  private static void deleteRecursively(Path dir) throws IOException {
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
