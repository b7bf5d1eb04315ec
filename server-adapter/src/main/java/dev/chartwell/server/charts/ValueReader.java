package dev.chartwell.server.charts;

/**
 * Reads one value of a JSON line straight from its bytes, for {@link LineParser}: a {@link
 * JsonStringReader} or a {@link JsonNumberReader}. A reader takes exactly what Jackson's strict
 * reader would take and gives up on anything else, leaving the line to the general reader. Nothing
 * is made per value: one reader of each kind serves a parser, which reads the results after each
 * value (before the next one).
 *
 * <p>Not thread-safe: one per {@link LineParser}.
 */
abstract class ValueReader {
  /** The line, while a value is being read. */
  byte[] line;

  /** Where the reader is in the line. */
  int pos;

  /** Where the bytes at hand end. */
  int end;

  /**
   * Reads the value that starts at {@code from}; then {@link #end()} and the reader's results say
   * what it read.
   *
   * @param line holds the value
   * @param from where it starts
   * @param end where the bytes at hand end
   * @throws GiveUp for anything the general reader must decide
   */
  public final void read(byte[] line, int from, int end) throws GiveUp {
    this.line = line;
    this.pos = from;
    this.end = end;
    try {
      scan();
    } finally {
      this.line = null;
    }
  }

  /**
   * @return where the value read last ends
   */
  public final int end() {
    return pos;
  }

  /**
   * Reads the value from {@link #pos}, and leaves {@link #pos} after it.
   *
   * @throws GiveUp for anything the general reader must decide
   */
  abstract void scan() throws GiveUp;
}
