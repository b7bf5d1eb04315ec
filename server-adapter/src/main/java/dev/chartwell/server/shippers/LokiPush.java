package dev.chartwell.server.shippers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.chartwell.server.http.ApiException;
import dev.chartwell.server.http.ErrorCode;
import dev.chartwell.server.otlp.BodyBudget;
import dev.chartwell.server.shippers.logproto.Push;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
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
  /** One log line: its time in epoch nanoseconds, its text and its structured metadata. */
  record Entry(long nanos, String line, Map<String, String> metadata) {}

  /** A stream: its labels and entries. */
  record Stream(Map<String, String> labels, List<Entry> entries) {}

  private LokiPush() {}

  /**
   * @param body the snappy-compressed {@code PushRequest}
   * @param maxBytes the largest body accepted once uncompressed (413 beyond)
   * @param held the request's memory reservation, grown by the uncompressed body
   * @return its streams
   */
  static List<Stream> protobuf(byte[] body, long maxBytes, BodyBudget.Held held) {
    byte[] raw;
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
      raw = Snappy.uncompress(body);
    } catch (IOException e) {
      throw ApiException.badRequest("the body is not snappy-compressed: " + e.getMessage());
    }
    Push.PushRequest request;
    try {
      request = Push.PushRequest.parseFrom(raw);
    } catch (InvalidProtocolBufferException e) {
      throw ApiException.badRequest(
          "the body is not a valid logproto.PushRequest: " + e.getMessage());
    }
    List<Stream> out = new ArrayList<>(request.getStreamsCount());
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
        String where = "streams[" + s + "].entries[" + i + "]";
        long nanos = nanos(where, e.getTimestamp().getSeconds(), e.getTimestamp().getNanos());
        Map<String, String> metadata = new LinkedHashMap<>();
        for (Push.LabelPair p : e.getStructuredMetadataList()) {
          metadata(where, metadata, p.getName(), p.getValue());
        }
        entries.add(new Entry(nanos, e.getLine(), metadata));
      }
      out.add(new Stream(labels, entries));
    }
    return out;
  }

  /**
   * @param mapper reads the body
   * @param body {@code {"streams":[{"stream":{labels},"values":[["<ns>","<line>",{metadata}]]}]}}
   * @return its streams
   */
  static List<Stream> json(ObjectMapper mapper, byte[] body) {
    JsonNode root;
    try {
      root = mapper.readTree(body);
    } catch (IOException e) {
      throw ApiException.badRequest("the body is not JSON: " + e.getMessage().split("\n")[0]);
    }
    if (root == null || !root.path("streams").isArray()) {
      throw ApiException.badRequest("the body must be an object with a \"streams\" array");
    }
    List<Stream> out = new ArrayList<>();
    int s = 0;
    for (JsonNode stream : root.get("streams")) {
      String where = "streams[" + s + "]";
      JsonNode labelsNode = stream.path("stream");
      if (!labelsNode.isObject()) {
        throw ApiException.badRequest(where + ".stream: must be an object of labels");
      }
      Map<String, String> labels = new LinkedHashMap<>();
      for (Iterator<Map.Entry<String, JsonNode>> it = labelsNode.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> f = it.next();
        if (!LokiLabels.validName(f.getKey())) {
          throw ApiException.badRequest(
              where + ".stream: '" + f.getKey() + "' is not a label name (letters, digits, _)");
        }
        if (!f.getValue().isTextual()) {
          throw ApiException.badRequest(
              where + ".stream." + f.getKey() + ": a label value must be a string");
        }
        labels.put(f.getKey(), f.getValue().textValue());
      }
      JsonNode values = stream.path("values");
      if (!values.isArray()) {
        throw ApiException.badRequest(where + ".values: must be an array of [time, line] pairs");
      }
      List<Entry> entries = new ArrayList<>(values.size());
      int i = 0;
      for (JsonNode v : values) {
        String at = where + ".values[" + i++ + "]";
        if (!v.isArray() || v.size() < 2 || v.size() > 3 || !v.get(1).isTextual()) {
          throw ApiException.badRequest(
              at
                  + ": must be [\"<epoch nanoseconds>\", \"<line>\"] or with a third element,"
                  + " an object of structured metadata");
        }
        long nanos = jsonNanos(at, v.get(0));
        Map<String, String> metadata = new LinkedHashMap<>();
        if (v.size() == 3) {
          if (!v.get(2).isObject()) {
            throw ApiException.badRequest(at + "[2]: structured metadata must be an object");
          }
          for (Iterator<Map.Entry<String, JsonNode>> it = v.get(2).fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            if (!f.getValue().isTextual()) {
              throw ApiException.badRequest(
                  at + "[2]." + f.getKey() + ": a structured metadata value must be a string");
            }
            metadata(at, metadata, f.getKey(), f.getValue().textValue());
          }
        }
        entries.add(new Entry(nanos, v.get(1).textValue(), metadata));
      }
      out.add(new Stream(labels, entries));
      s++;
    }
    return out;
  }

  private static void metadata(String where, Map<String, String> out, String name, String value) {
    if (name.isEmpty()) {
      throw ApiException.badRequest(where + ": a structured metadata name must not be empty");
    }
    out.put(name, value);
  }

  private static long jsonNanos(String where, JsonNode v) {
    String text = v.isTextual() ? v.textValue() : v.isIntegralNumber() ? v.asText() : null;
    if (text == null
        || text.isEmpty()
        || text.length() > 19
        || !text.chars().allMatch(Character::isDigit)) {
      throw ApiException.badRequest(
          where + "[0]: the time must be epoch nanoseconds as a string of digits, got " + v);
    }
    long nanos = Long.parseLong(text);
    if (nanos <= 0) {
      throw ApiException.badRequest(where + "[0]: the time must be after 1970");
    }
    return nanos;
  }

  /** A protobuf {@code Timestamp} as epoch nanoseconds: 400 when before 1970 or too late. */
  private static long nanos(String where, long seconds, int nanos) {
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
