package dev.chartwell.server;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;

/**
 * {@code --log-format json}: every line the server prints becomes one JSON object, {@code
 * {"time":"2026-11-29T01:02:03.456Z","level":"INFO","logger":"chartwell","message":"..."}}, for log
 * collectors. The level is {@code WARN} for warnings and {@code ERROR} for failures; the {@code
 * chartwell: } prefix of text lines is left out. Lines of the start-up output that carry a secret
 * (a generated admin key secret, service tokens and the commands holding them) are never written:
 * see {@link #SECRET_LINES}.
 */
final class JsonLog extends OutputStream {
  /** How the start-up output's lines that carry a secret begin. */
  static final List<String> SECRET_LINES =
      List.of(
          "admin key secret",
          "demo token",
          "try: curl",
          "quickstart token",
          "  or: curl",
          "send OTLP:",
          "embedded service token");

  private final PrintStream target;
  private final Clock clock;
  private final ByteArrayOutputStream line = new ByteArrayOutputStream();

  private JsonLog(PrintStream target, Clock clock) {
    this.target = target;
    this.clock = clock;
  }

  /**
   * @param target where the JSON lines go
   * @param clock the records' time
   * @return a stream that writes each line printed to it as a JSON record
   */
  static PrintStream over(PrintStream target, Clock clock) {
    return new PrintStream(new JsonLog(target, clock), true, StandardCharsets.UTF_8);
  }

  /**
   * @param line a line of the start-up output
   * @return whether it carries a secret (and is left out of JSON logs)
   */
  static boolean isSecret(String line) {
    return SECRET_LINES.stream().anyMatch(line::startsWith);
  }

  @Override
  public synchronized void write(int b) {
    if (b == '\n') {
      emit(line.toString(StandardCharsets.UTF_8));
      line.reset();
    } else if (b != '\r') {
      line.write(b);
    }
  }

  @Override
  public synchronized void flush() {
    target.flush();
  }

  private void emit(String text) {
    String message = text.startsWith("chartwell: ") ? text.substring(11) : text;
    String level =
        message.startsWith("warning:")
            ? "WARN"
            : message.startsWith("cannot start") || message.startsWith("error") ? "ERROR" : "INFO";
    JsonStringEncoder json = JsonStringEncoder.getInstance();
    target.println(
        "{\"time\":\""
            + clock.instant()
            + "\",\"level\":\""
            + level
            + "\",\"logger\":\"chartwell\",\"message\":\""
            + new String(json.quoteAsString(message))
            + "\"}");
  }
}
