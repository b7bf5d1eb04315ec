package dev.chartwell.server.charts;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import dev.chartwell.engine.source.Event;
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
  static final int BATCH = 5_000;
  private static final long NANOS_FROM = 100_000_000_000_000_000L;

  /** A line (or array element) that could not become an event. */
  record LineError(long line, String error) {}

  /** Receives each batch of parsed events; returns the problems of those it rejected. */
  interface Sink {
    /**
     * @param events parsed events
     * @param lines their line numbers
     * @return rejected events by position in the batch, with reasons
     */
    List<Map.Entry<Integer, String>> accept(List<Event> events, List<Long> lines);
  }

  private final ObjectMapper mapper;

  /**
   * Reads one value in the middle of a body: the mapper's strict reading, except that more of the
   * body follows (the mapper alone refuses that as trailing tokens).
   */
  private final ObjectReader values;

  private final String timestampField;
  private long accepted;
  private long rejected;

  /** The first 100 problems by line; store rejections arrive after later parse errors. */
  private final java.util.TreeMap<Long, String> errors = new java.util.TreeMap<>();

  EventReader(ObjectMapper mapper, String timestampField) {
    this.mapper = mapper;
    this.values = mapper.reader().without(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    this.timestampField = timestampField;
  }

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
    List<Event> batch = new ArrayList<>();
    List<Long> lines = new ArrayList<>();
    if (first == '[') {
      readArray(in, sink, batch, lines);
    } else {
      readLines(in, sink, batch, lines);
    }
    flush(sink, batch, lines);
  }

  /**
   * Reads NDJSON line by line as bytes, so that a line that is not strict UTF-8 is rejected and
   * reported by itself (never altered to U+FFFD) while the other lines are kept.
   */
  private void readLines(InputStream in, Sink sink, List<Event> batch, List<Long> lines)
      throws IOException {
    byte[] chunk = new byte[1 << 16];
    byte[] line = new byte[1 << 12];
    int len = 0;
    long number = 0;
    int n;
    while ((n = in.read(chunk)) > 0) {
      int from = 0;
      for (int i = 0; i < n; i++) {
        if (chunk[i] == '\n') {
          line = append(line, len, chunk, from, i - from);
          len += i - from;
          line(++number, line, len, sink, batch, lines);
          len = 0;
          from = i + 1;
        }
      }
      line = append(line, len, chunk, from, n - from);
      len += n - from;
    }
    if (len > 0) {
      line(++number, line, len, sink, batch, lines);
    }
  }

  private static byte[] append(byte[] line, int len, byte[] chunk, int from, int count) {
    if (len + count > line.length) {
      line = java.util.Arrays.copyOf(line, Math.max(line.length * 2, len + count));
    }
    System.arraycopy(chunk, from, line, len, count);
    return line;
  }

  /**
   * One NDJSON line: strict UTF-8 (else the line alone is rejected), then JSON, streamed straight
   * into the event's fields (an ASCII line from its bytes, with no decoding). A line that is not
   * one plain JSON object is read again as a tree, which says what is wrong with it as it always
   * has.
   */
  private void line(
      long number, byte[] bytes, int len, Sink sink, List<Event> batch, List<Long> lines)
      throws IOException {
    int end = len > 0 && bytes[len - 1] == '\r' ? len - 1 : len;
    boolean ascii = ascii(bytes, end);
    String text = null;
    if (!ascii) {
      try {
        text = JsonErrors.strictUtf8(bytes, 0, end);
      } catch (CharacterCodingException e) {
        reject(
            number,
            "not valid UTF-8 (invalid byte sequence at byte "
                + (JsonErrors.invalidUtf8At(java.util.Arrays.copyOf(bytes, end)) + 1)
                + " of the line)");
        return;
      }
    }
    if (ascii ? blank(bytes, end) : text.isBlank()) {
      return;
    }
    Map<String, Object> fields = new LinkedHashMap<>();
    String nonFinite;
    try (JsonParser p = ascii ? mapper.createParser(bytes, 0, end) : mapper.createParser(text)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw NotPlain.INSTANCE;
      }
      nonFinite = readObject(p, "", fields);
      if (p.nextToken() != null) {
        throw NotPlain.INSTANCE;
      }
    } catch (IOException | NotPlain e) {
      JsonNode node;
      try {
        node = mapper.readTree(ascii ? new String(bytes, 0, end, StandardCharsets.US_ASCII) : text);
      } catch (JsonProcessingException described) {
        reject(number, JsonErrors.describeInLine(described));
        return;
      }
      add(node, number, sink, batch, lines);
      return;
    }
    event(fields, nonFinite, number, sink, batch, lines);
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
   * Reads the fields of the object the parser has just entered, flattened: nested objects with
   * {@code .}, arrays as their JSON text, {@code null} left out.
   *
   * @return the path of the first number too large for a double, or {@code null}
   */
  private String readObject(JsonParser p, String prefix, Map<String, Object> out)
      throws IOException {
    String nonFinite = null;
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String name = prefix.isEmpty() ? p.currentName() : prefix + "." + p.currentName();
      String found = null;
      switch (p.nextToken()) {
        case START_OBJECT -> found = readObject(p, name, out);
        case START_ARRAY -> {
          JsonNode array = values.readTree(p);
          out.put(name, array.toString());
          found = JsonErrors.nonFiniteNumberPath(array, name);
        }
        case VALUE_STRING -> out.put(name, p.getText());
        case VALUE_TRUE -> out.put(name, Boolean.TRUE);
        case VALUE_FALSE -> out.put(name, Boolean.FALSE);
        case VALUE_NUMBER_INT ->
            out.put(
                name,
                p.getNumberType() == JsonParser.NumberType.BIG_INTEGER
                    ? p.getBigIntegerValue()
                    : (Object) p.getLongValue());
        case VALUE_NUMBER_FLOAT -> {
          double d = p.getDoubleValue();
          d = d == 0 ? 0.0 : d; // as through a decimal (the tree reader's floats): no -0.0
          found = Double.isFinite(d) ? null : name;
          out.put(name, d);
        }
        default -> {} // null: absent
      }
      if (nonFinite == null) {
        nonFinite = found;
      }
    }
    return nonFinite;
  }

  /**
   * Reads a JSON array of events one element at a time. An element that is not JSON or not strict
   * UTF-8 is rejected, and with it the rest of the array (which can no longer be located); the
   * elements before it are kept. A body whose first bytes are not UTF-8 fails already while the
   * parser detects the encoding: that is the first element's problem too.
   */
  private void readArray(InputStream in, Sink sink, List<Event> batch, List<Long> lines)
      throws IOException {
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
          Map<String, Object> fields = new LinkedHashMap<>();
          event(fields, readObject(p, "", fields), element, sink, batch, lines);
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
  private void add(JsonNode node, long line, Sink sink, List<Event> batch, List<Long> lines)
      throws IOException {
    if (!node.isObject()) {
      reject(line, "each event must be a JSON object");
      return;
    }
    Map<String, Object> fields = new LinkedHashMap<>();
    try (JsonParser p = node.traverse(mapper)) {
      p.nextToken();
      event(fields, readObject(p, "", fields), line, sink, batch, lines);
    }
  }

  /** An object's flattened fields become an event, or the line is rejected saying why. */
  private void event(
      Map<String, Object> fields,
      String nonFinite,
      long line,
      Sink sink,
      List<Event> batch,
      List<Long> lines) {
    if (nonFinite != null) {
      reject(
          line, nonFinite + ": number out of range (larger than a 64-bit floating-point number)");
      return;
    }
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
    lines.add(line);
    if (batch.size() >= BATCH) {
      flush(sink, batch, lines);
    }
  }

  private void flush(Sink sink, List<Event> batch, List<Long> lines) {
    if (batch.isEmpty()) {
      return;
    }
    List<Map.Entry<Integer, String>> problems = sink.accept(List.copyOf(batch), List.copyOf(lines));
    accepted += batch.size() - problems.size();
    for (Map.Entry<Integer, String> p : problems) {
      reject(lines.get(p.getKey()), p.getValue());
    }
    batch.clear();
    lines.clear();
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
