package dev.chartwell.server.shippers;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.chartwell.server.http.ApiException;
import dev.chartwell.server.http.ErrorCode;
import dev.chartwell.server.http.JsonErrors;
import dev.chartwell.server.otlp.BodyBudget;
import dev.chartwell.server.shippers.logproto.Push;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.xerial.snappy.Snappy;

/**
 * A Loki push request decoded, from either encoding, into streams of entries; every problem is a
 * 400 naming it, found before anything is stored.
 */
final class LokiPush {
  /**
   * One log line: its time in epoch nanoseconds, its text and its structured metadata as names and
   * values in turn (a name given twice: the last value counts).
   */
  record Entry(long nanos, String line, String[] metadata) {}

  private static final String[] NONE = new String[0];

  /** A stream: its labels and entries. */
  record Stream(Map<String, String> labels, List<Entry> entries) {}

  private LokiPush() {}

  /**
   * @param body the snappy-compressed {@code PushRequest}
   * @param maxBytes the largest body accepted once uncompressed (413 beyond)
   * @param held the request's memory reservation, grown by the uncompressed body
   * @return the {@code PushRequest}'s bytes
   */
  static byte[] uncompress(byte[] body, long maxBytes, BodyBudget.Held held) {
    try {
      if (!Snappy.isValidCompressedBuffer(body)) {
        throw ApiException.badRequest("the body is not snappy-compressed (block format)");
      }
      int length = Snappy.uncompressedLength(body);
      if (length < 0 || length > maxBytes) {
        throw new ApiException(
            ErrorCode.PAYLOAD_TOO_LARGE,
            String.format(
                Locale.ROOT,
                "the body uncompresses to %,d bytes, more than the limit of %,d",
                Integer.toUnsignedLong(length),
                maxBytes));
      }
      held.grow(length);
      return Snappy.uncompress(body);
    } catch (IOException e) {
      throw ApiException.badRequest("the body is not snappy-compressed: " + e.getMessage());
    }
  }

  /**
   * @param raw an uncompressed {@code PushRequest} ({@link #uncompress})
   * @return its streams
   */
  static List<Stream> protobuf(byte[] raw) {
    Push.PushRequest request;
    try {
      request = Push.PushRequest.parseFrom(raw);
    } catch (InvalidProtocolBufferException e) {
      throw ApiException.badRequest(
          "the body is not a valid logproto.PushRequest: " + e.getMessage());
    }
    List<Stream> out = new ArrayList<>(request.getStreamsCount());
    At at = new At("entries");
    for (int s = 0; s < request.getStreamsCount(); s++) {
      Push.Stream stream = request.getStreams(s);
      Map<String, String> labels;
      try {
        labels = LokiLabels.parse(stream.getLabels());
      } catch (LokiLabels.Invalid e) {
        throw ApiException.badRequest("streams[" + s + "]: " + e.getMessage());
      }
      List<Entry> entries = new ArrayList<>(stream.getEntriesCount());
      for (int i = 0; i < stream.getEntriesCount(); i++) {
        Push.Entry e = stream.getEntries(i);
        At where = at.of(s, i);
        long nanos = nanos(where, e.getTimestamp().getSeconds(), e.getTimestamp().getNanos());
        int count = e.getStructuredMetadataCount();
        String[] metadata = count == 0 ? NONE : new String[2 * count];
        for (int m = 0; m < count; m++) {
          Push.LabelPair p = e.getStructuredMetadata(m);
          metadata[2 * m] = metadataName(where, p.getName());
          metadata[2 * m + 1] = p.getValue();
        }
        entries.add(new Entry(nanos, e.getLine(), metadata));
      }
      out.add(new Stream(labels, entries));
    }
    return out;
  }

  /**
   * Reads the JSON encoding streaming (no tree of the body is built).
   *
   * @param mapper reads the body
   * @param body {@code {"streams":[{"stream":{labels},"values":[["<ns>","<line>",{metadata}]]}]}}
   * @return its streams
   */
  static List<Stream> json(ObjectMapper mapper, byte[] body) {
    strictUtf8(body);
    List<Stream> out = new ArrayList<>();
    try (JsonParser p = mapper.createParser(body)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw ApiException.badRequest("the body must be an object with a \"streams\" array");
      }
      boolean streams = false;
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        JsonToken t = p.nextToken();
        if (!name.equals("streams")) {
          p.skipChildren();
          continue;
        }
        if (t != JsonToken.START_ARRAY) {
          throw ApiException.badRequest("the body must be an object with a \"streams\" array");
        }
        streams = true;
        while (p.nextToken() != JsonToken.END_ARRAY) {
          out.add(stream(p, out.size()));
        }
      }
      if (!streams) {
        throw ApiException.badRequest("the body must be an object with a \"streams\" array");
      }
      if (p.nextToken() != null) {
        throw ApiException.badRequest("the body holds more than one JSON value");
      }
    } catch (JsonProcessingException e) {
      throw ApiException.badRequest("the body is not JSON: " + JsonErrors.describeInLine(e));
    } catch (IOException e) {
      throw ApiException.badRequest("the body is unreadable: " + e.getMessage());
    }
    return out;
  }

  /** A stream object, its start read. */
  private static Stream stream(JsonParser p, int number) throws IOException {
    String where = "streams[" + number + "]";
    if (p.currentToken() != JsonToken.START_OBJECT) {
      throw ApiException.badRequest(where + ": must be an object with \"stream\" and \"values\"");
    }
    Map<String, String> labels = null;
    List<Entry> entries = null;
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String name = p.currentName();
      JsonToken t = p.nextToken();
      if (name.equals("stream")) {
        labels = labels(p, t, where + ".stream");
      } else if (name.equals("values")) {
        entries = values(p, t, where, number);
      } else {
        p.skipChildren();
      }
    }
    if (labels == null) {
      throw ApiException.badRequest(where + ".stream: must be an object of labels");
    }
    if (entries == null) {
      throw ApiException.badRequest(where + ".values: must be an array of [time, line] pairs");
    }
    return new Stream(labels, entries);
  }

  private static Map<String, String> labels(JsonParser p, JsonToken t, String where)
      throws IOException {
    if (t != JsonToken.START_OBJECT) {
      throw ApiException.badRequest(where + ": must be an object of labels");
    }
    Map<String, String> labels = new LinkedHashMap<>();
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String name = p.currentName();
      if (!LokiLabels.validName(name)) {
        throw ApiException.badRequest(
            where + ": '" + name + "' is not a label name (letters, digits, _)");
      }
      if (p.nextToken() != JsonToken.VALUE_STRING) {
        throw ApiException.badRequest(where + "." + name + ": a label value must be a string");
      }
      labels.put(name, p.getText());
    }
    return labels;
  }

  private static List<Entry> values(JsonParser p, JsonToken t, String where, int stream)
      throws IOException {
    if (t != JsonToken.START_ARRAY) {
      throw ApiException.badRequest(where + ".values: must be an array of [time, line] pairs");
    }
    List<Entry> entries = new ArrayList<>();
    List<String> metadata = new ArrayList<>();
    At place = new At("values");
    for (int i = 0; p.nextToken() != JsonToken.END_ARRAY; i++) {
      At at = place.of(stream, i);
      if (p.currentToken() != JsonToken.START_ARRAY) {
        throw shape(at);
      }
      JsonToken time = p.nextToken();
      if (time != JsonToken.VALUE_STRING && time != JsonToken.VALUE_NUMBER_INT) {
        throw time == JsonToken.END_ARRAY ? shape(at) : badTime(at, p.getText());
      }
      long nanos = jsonNanos(at, p.getText());
      if (p.nextToken() != JsonToken.VALUE_STRING) {
        throw shape(at);
      }
      String line = p.getText();
      String[] meta = NONE;
      JsonToken next = p.nextToken();
      if (next != JsonToken.END_ARRAY) {
        if (next != JsonToken.START_OBJECT) {
          throw next == JsonToken.START_ARRAY || next.isScalarValue()
              ? ApiException.badRequest(at + "[2]: structured metadata must be an object")
              : shape(at);
        }
        metadata.clear();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String name = p.currentName();
          if (p.nextToken() != JsonToken.VALUE_STRING) {
            throw ApiException.badRequest(
                at + "[2]." + name + ": a structured metadata value must be a string");
          }
          metadata.add(metadataName(at, name));
          metadata.add(p.getText());
        }
        meta = metadata.isEmpty() ? NONE : metadata.toArray(NONE);
        if (p.nextToken() != JsonToken.END_ARRAY) {
          throw shape(at);
        }
      }
      entries.add(new Entry(nanos, line, meta));
    }
    return entries;
  }

  /**
   * Where an entry is in the request (mutable, one per request), made text only for a message: an
   * entry costs no string.
   */
  private static final class At {
    private final String list;
    private int stream;
    private int entry;

    At(String list) {
      this.list = list;
    }

    At of(int stream, int entry) {
      this.stream = stream;
      this.entry = entry;
      return this;
    }

    @Override
    public String toString() {
      return "streams[" + stream + "]." + list + "[" + entry + "]";
    }
  }

  private static ApiException shape(At at) {
    return ApiException.badRequest(
        at
            + ": must be [\"<epoch nanoseconds>\", \"<line>\"] or with a third element,"
            + " an object of structured metadata");
  }

  private static ApiException badTime(At at, String got) {
    return ApiException.badRequest(
        at + "[0]: the time must be epoch nanoseconds as a string of digits, got " + got);
  }

  /** 400 unless the body is strict UTF-8 (checked only when it holds a byte past ASCII). */
  private static void strictUtf8(byte[] body) {
    for (byte b : body) {
      if (b < 0) {
        try {
          JsonErrors.strictUtf8(body, 0, body.length);
        } catch (java.nio.charset.CharacterCodingException e) {
          throw ApiException.badRequest(
              "the body is not valid UTF-8 (invalid byte sequence at byte "
                  + (JsonErrors.invalidUtf8At(body) + 1)
                  + ")");
        }
        return;
      }
    }
  }

  private static String metadataName(At where, String name) {
    if (name.isEmpty()) {
      throw ApiException.badRequest(where + ": a structured metadata name must not be empty");
    }
    return name;
  }

  private static long jsonNanos(At where, String text) {
    if (text.isEmpty() || text.length() > 19 || !text.chars().allMatch(Character::isDigit)) {
      throw badTime(
          where, "\"" + (text.length() > 40 ? text.substring(0, 40) + "..." : text) + "\"");
    }
    long nanos;
    try {
      nanos = Long.parseLong(text);
    } catch (NumberFormatException e) { // 19 digits past the largest long
      throw ApiException.badRequest(
          where
              + "[0]: the time must be before 2262 (epoch nanoseconds within a long), got "
              + text);
    }
    if (nanos <= 0) {
      throw ApiException.badRequest(where + "[0]: the time must be after 1970");
    }
    return nanos;
  }

  /** A protobuf {@code Timestamp} as epoch nanoseconds: 400 when before 1970 or too late. */
  private static long nanos(At where, long seconds, int nanos) {
    if (seconds < 0
        || seconds > Long.MAX_VALUE / 1_000_000_000L - 1
        || nanos < 0
        || nanos > 999_999_999
        || (seconds == 0 && nanos == 0)) {
      throw ApiException.badRequest(
          where
              + ": the time must be after 1970 and before 2262 (seconds "
              + seconds
              + ", nanos "
              + nanos
              + ")");
    }
    return seconds * 1_000_000_000L + nanos;
  }
}
