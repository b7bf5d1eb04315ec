package dev.chartwell.server.charts;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import dev.chartwell.engine.Event;
import dev.chartwell.engine.EventBatch;
import dev.chartwell.server.http.JsonErrors;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns an ingestion body into events, streaming: NDJSON (one object per line) or one JSON array of
 * objects, handed to the sink in batches so that a large body never sits in memory whole. Nested
 * objects are flattened with {@code .}, arrays are kept as their JSON text, {@code null} is absent.
 * The timestamp field takes epoch milliseconds, epoch nanoseconds (integers from 10^17) or an
 * ISO-8601 string with an offset.
 */
final class EventReader {
  static final int BATCH = 8_192;
  private static final long NANOS_FROM = 100_000_000_000_000_000L;

  /** The buffer lines are read into (a longer line grows it). */
  private static final int CHUNK = 1 << 20;

  /** How much is read, at least, before the lines read are parsed (unless the body ends). */
  private static final int FILL = 256 << 10;

  /** A line (or array element) that could not become an event. */
  record LineError(long line, String error) {}

  /** Takes each batch of parsed events. */
  interface Sink {
    /**
     * Stores a batch (it may be cleared and filled again once this returns); its events need not be
     * durable until {@link #awaitDurable()}.
     *
     * @param events parsed events
     * @param lines their line numbers
     * @return rejected events by position in the batch, with reasons
     */
    List<Map.Entry<Integer, String>> accept(EventBatch events, long[] lines);

    /** Returns once every event accepted so far is durable. */
    default void awaitDurable() {}
  }

  private final ObjectMapper mapper;

  /**
   * Reads one value in the middle of a body: the mapper's strict reading, except that more of the
   * body follows (the mapper alone refuses that as trailing tokens).
   */
  private final ObjectReader values;

  private final String timestampField;
  private final LineParser lineParser;
  private final EventBatch batch = new EventBatch();
  private long[] lines = new long[BATCH];
  private long accepted;
  private long notYetDurable;
  private long rejected;

  /** The first 100 problems by line; store rejections arrive after later parse errors. */
  private final java.util.TreeMap<Long, String> errors = new java.util.TreeMap<>();

  EventReader(ObjectMapper mapper, String timestampField) {
    this.mapper = mapper;
    this.values = mapper.reader().without(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    this.timestampField = timestampField;
    this.lineParser = new LineParser(timestampField, batch);
  }

  /**
   * @return events stored and durable so far
   */
  long accepted() {
    return accepted;
  }

  long rejected() {
    return rejected;
  }

  List<LineError> errors() {
    List<LineError> out = new ArrayList<>(errors.size());
    errors.forEach((line, error) -> out.add(new LineError(line, error)));
    return out;
  }

  void read(InputStream body, Sink sink) throws IOException {
    BufferedInputStream in = new BufferedInputStream(body, 1 << 16);
    in.mark(1 << 16);
    int first;
    do {
      first = in.read();
    } while (first == ' ' || first == '\n' || first == '\r' || first == '\t');
    in.reset();
    if (first == '[') {
      readArray(in, sink);
    } else {
      readLines(in, sink);
    }
    flush(sink);
    sink.awaitDurable();
    accepted += notYetDurable;
    notYetDurable = 0;
  }

  /**
   * Reads NDJSON line by line as bytes, each where it lies in the buffer: a plain line in one pass
   * ({@link LineParser} finds its end), any other by itself after its newline is found, so that a
   * line that is not strict UTF-8 is rejected and reported by itself (never altered to U+FFFD)
   * while the other lines are kept.
   */
  private void readLines(InputStream in, Sink sink) throws IOException {
    byte[] buffer = new byte[CHUNK];
    int filled = 0;
    long number = 0;
    boolean eof = false;
    while (!eof) {
      int end = filled;
      while (end - filled < FILL && end < buffer.length) { // few lines cut at a buffer's end
        int n = in.read(buffer, end, buffer.length - end);
        if (n <= 0) {
          eof = true;
          break;
        }
        end += n;
      }
      int from = 0;
      while (from < end) {
        int lineEnd = lineParser.parse(buffer, from, end, eof);
        if (lineEnd >= 0) {
          added(++number, sink);
          from = lineEnd + 1;
          continue;
        }
        int newline = indexOf(buffer, (byte) '\n', from, end);
        if (newline < 0 && !eof) {
          break; // the line goes on past what was read
        }
        int to = newline < 0 ? end : newline;
        line(++number, buffer, from, to, sink);
        from = to + 1;
      }
      filled = Math.max(0, end - from);
      System.arraycopy(buffer, Math.min(from, end), buffer, 0, filled);
      if (filled == buffer.length) {
        buffer = java.util.Arrays.copyOf(buffer, 2 * buffer.length); // a line longer than it
      }
    }
  }

  private static int indexOf(byte[] bytes, byte b, int from, int to) {
    for (int i = from; i < to; i++) {
      if (bytes[i] == b) {
        return i;
      }
    }
    return -1;
  }

  /**
   * One NDJSON line that is not a plain object (or that {@link LineParser} leaves alone): strict
   * UTF-8 (else the line alone is rejected), then JSON, streamed into the event's fields. A line
   * that is not one plain JSON object is read again as a tree, which says what is wrong with it as
   * it always has.
   */
  private void line(long number, byte[] buffer, int from, int to, Sink sink) throws IOException {
    int end = to > from && buffer[to - 1] == '\r' ? to - 1 : to;
    byte[] bytes = java.util.Arrays.copyOfRange(buffer, from, end);
    int length = bytes.length;
    boolean ascii = ascii(bytes, length);
    String text = null;
    if (!ascii) {
      try {
        text = JsonErrors.strictUtf8(bytes, 0, length);
      } catch (CharacterCodingException e) {
        reject(
            number,
            "not valid UTF-8 (invalid byte sequence at byte "
                + (JsonErrors.invalidUtf8At(bytes) + 1)
                + " of the line)");
        return;
      }
    }
    if (ascii ? blank(bytes, length) : text.isBlank()) {
      return;
    }
    Map<String, Object> fields = new LinkedHashMap<>();
    try (JsonParser p = ascii ? mapper.createParser(bytes, 0, length) : mapper.createParser(text)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw NotPlain.INSTANCE;
      }
      JsonFields.read(p, fields);
      if (p.nextToken() != null) {
        throw NotPlain.INSTANCE;
      }
    } catch (JsonFields.Refused e) {
      reject(number, e.getMessage());
      return;
    } catch (IOException | NotPlain e) {
      JsonNode node;
      try {
        node =
            mapper.readTree(ascii ? new String(bytes, 0, length, StandardCharsets.US_ASCII) : text);
      } catch (JsonProcessingException described) {
        reject(number, JsonErrors.describeInLine(described));
        return;
      }
      add(node, number, sink);
      return;
    }
    event(fields, number, sink);
  }

  /** A line that is not one JSON object alone; the tree reader describes it. */
  private static final class NotPlain extends Exception {
    static final NotPlain INSTANCE = new NotPlain();

    private NotPlain() {
      super(null, null, false, false);
    }
  }

  private static boolean ascii(byte[] bytes, int end) {
    for (int i = 0; i < end; i++) {
      if (bytes[i] < 0) {
        return false;
      }
    }
    return true;
  }

  private static boolean blank(byte[] bytes, int end) {
    for (int i = 0; i < end; i++) {
      if (!Character.isWhitespace((char) bytes[i])) {
        return false;
      }
    }
    return true;
  }

  /**
   * Reads a JSON array of events one element at a time. An element that is not JSON or not strict
   * UTF-8 is rejected, and with it the rest of the array (which can no longer be located); the
   * elements before it are kept. A body whose first bytes are not UTF-8 fails already while the
   * parser detects the encoding: that is the first element's problem too.
   */
  private void readArray(InputStream in, Sink sink) throws IOException {
    long element = 0; // the element being read, from 1
    try (JsonParser p = mapper.getFactory().createParser(new Utf8Check(in))) {
      p.nextToken(); // [
      while (true) {
        element++;
        JsonToken t = p.nextToken();
        if (t == JsonToken.END_ARRAY || t == null) {
          return;
        }
        if (t == JsonToken.START_OBJECT) {
          JsonStreamContext array = p.getParsingContext().getParent();
          Map<String, Object> fields = new LinkedHashMap<>();
          try {
            JsonFields.read(p, fields);
          } catch (JsonFields.Refused e) {
            while (p.getParsingContext() != array) {
              p.nextToken(); // the rest of the refused element, to go on after it
            }
            reject(element, e.getMessage());
            continue;
          }
          event(fields, element, sink);
        } else {
          values.readTree(p); // the whole value, to go on after it
          reject(element, "each event must be a JSON object");
        }
      }
    } catch (JsonProcessingException e) {
      reject(Math.max(1, element), JsonErrors.describeInLine(e));
    } catch (Utf8Check.InvalidUtf8Exception e) {
      reject(
          Math.max(1, element),
          "not valid UTF-8 ("
              + e.getMessage()
              + " of the body); the rest of the array was not read");
    }
  }

  /** A line read as a tree (after the streaming reading refused it). */
  private void add(JsonNode node, long line, Sink sink) throws IOException {
    if (!node.isObject()) {
      reject(line, "each event must be a JSON object");
      return;
    }
    Map<String, Object> fields = new LinkedHashMap<>();
    try (JsonParser p = node.traverse(mapper)) {
      p.nextToken();
      JsonFields.read(p, fields);
    } catch (JsonFields.Refused e) {
      reject(line, e.getMessage());
      return;
    }
    event(fields, line, sink);
  }

  /** An object's flattened fields become an event, or the line is rejected saying why. */
  private void event(Map<String, Object> fields, long line, Sink sink) {
    Object ts = fields.remove(timestampField);
    if (ts == null) {
      reject(line, timestampField + ": is required");
      return;
    }
    long millis;
    try {
      millis = timestamp(ts);
    } catch (IllegalArgumentException e) {
      reject(line, timestampField + ": " + e.getMessage());
      return;
    }
    batch.add(new Event(millis, fields));
    added(line, sink);
  }

  /** The batch's last event came from this line. */
  private void added(long line, Sink sink) {
    int row = batch.size() - 1;
    if (row == lines.length) {
      lines = java.util.Arrays.copyOf(lines, 2 * row);
    }
    lines[row] = line;
    if (batch.size() >= BATCH) {
      flush(sink);
    }
  }

  /**
   * Hands the batch over once the one before it is durable, so that the log's fsync of one batch
   * runs while the next is read.
   */
  private void flush(Sink sink) {
    if (batch.size() == 0) {
      return;
    }
    sink.awaitDurable();
    accepted += notYetDurable;
    notYetDurable = 0;
    List<Map.Entry<Integer, String>> problems = sink.accept(batch, lines);
    notYetDurable = batch.size() - problems.size();
    for (Map.Entry<Integer, String> p : problems) {
      reject(lines[p.getKey()], p.getValue());
    }
    batch.clear();
  }

  private void reject(long line, String error) {
    rejected++;
    errors.put(line, error);
    if (errors.size() > 100) {
      errors.pollLastEntry();
    }
  }

  static long timestamp(Object v) {
    if (v instanceof Long n) {
      if (n <= 0) {
        throw new IllegalArgumentException("must be a positive epoch timestamp");
      }
      return n >= NANOS_FROM ? n / 1_000_000 : n;
    }
    if (v instanceof String s) {
      try {
        return OffsetDateTime.parse(s).toInstant().toEpochMilli();
      } catch (DateTimeParseException e) {
        try {
          return Instant.parse(s).toEpochMilli();
        } catch (DateTimeParseException e2) {
          throw new IllegalArgumentException(
              "'"
                  + s
                  + "' is not an ISO-8601 timestamp with an offset (e.g. 2026-11-21T10:15:30Z)");
        }
      }
    }
    throw new IllegalArgumentException(
        "must be epoch milliseconds, epoch nanoseconds or an ISO-8601 string");
  }
}
