package dev.chartwell.server.docs;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One {@code bash -euo pipefail} for a whole document, so that the variables one block sets are
 * there for the next, as in a reader's terminal. Each block is sent on standard input followed by
 * an end marker; its standard output is read up to the marker. A command that fails ends the shell
 * (that is {@code -e}), and the block fails with what it printed.
 */
final class DocShell implements AutoCloseable {
  private static final String END = "@@chartwell-docs-test-end@@";

  private final Process bash;
  private final OutputStream in;
  private final BufferedReader out;
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  /**
   * @param dir the shell's working directory (a fresh one per document)
   * @param env variables added to the shell's environment
   * @param prelude commands run first, not part of any block (the {@code java} function)
   */
  DocShell(Path dir, Map<String, String> env, String prelude) throws IOException {
    ProcessBuilder pb = new ProcessBuilder("bash", "-euo", "pipefail").directory(dir.toFile());
    pb.environment().putAll(env);
    bash = pb.start();
    in = bash.getOutputStream();
    out = new BufferedReader(new InputStreamReader(bash.getInputStream(), StandardCharsets.UTF_8));
    InputStream e = bash.getErrorStream();
    Thread drain =
        new Thread(
            () -> {
              try {
                e.transferTo(err);
              } catch (IOException ignored) {
                // the shell ended
              }
            },
            "docs-shell-stderr");
    drain.setDaemon(true);
    drain.start();
    run(prelude);
  }

  /**
   * Runs one block.
   *
   * @return what it printed on standard output
   * @throws AssertionError when a command of the block failed (its output and errors attached)
   */
  String run(String script) {
    StringBuilder printed = new StringBuilder();
    try {
      in.write((script + "\nprintf '\\n%s\\n' '" + END + "'\n").getBytes(StandardCharsets.UTF_8));
      in.flush();
      String line;
      while ((line = out.readLine()) != null) {
        if (line.equals(END)) {
          String s = printed.toString();
          return s.endsWith("\n") ? s.substring(0, s.length() - 1) : s;
        }
        printed.append(line).append('\n');
      }
    } catch (IOException e) {
      // the shell ended: reported below
    }
    throw new AssertionError(
        "the block failed (bash -euo pipefail ended"
            + exitText()
            + ")\n--- it printed:\n"
            + printed
            + "--- on standard error:\n"
            + errors());
  }

  /** What the shell wrote to standard error so far. */
  String errors() {
    synchronized (err) {
      return err.toString(StandardCharsets.UTF_8);
    }
  }

  private String exitText() {
    try {
      return bash.waitFor(5, TimeUnit.SECONDS) ? " with status " + bash.exitValue() : "";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "";
    }
  }

  @Override
  public void close() {
    try {
      in.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      bash.destroy();
    }
  }
}
