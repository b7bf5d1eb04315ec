package dev.chartwell.server.shippers;

import dev.chartwell.engine.AppendResult;
import dev.chartwell.engine.EventBatch;
import dev.chartwell.engine.Source;
import dev.chartwell.server.charts.WriteRefusals;
import dev.chartwell.server.http.ApiException;
import dev.chartwell.server.http.ErrorCode;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Writes a push's entries, read whole and found good, into its table a field at a time: each
 * field's number is looked up once per request (labels once per stream), and no map or event object
 * is made per entry. A stream's labels are {@code ResourceAttributes.*}, its {@code service_name}
 * ({@code job}, {@code app}) the {@code ServiceName} and its {@code level} ({@code detected_level})
 * the {@code SeverityText}, else an entry's own metadata of that name; the line is the {@code
 * Body}, the time to the nanosecond {@code TimestampNanos}, the time of receipt {@code
 * ObservedTimestamp}. It takes decoded streams ({@link #write(List)}) or, as a {@link
 * LokiTape.Sink}, a JSON push's tape, whose lines and values it copies from the body's bytes.
 *
 * <p>Not thread-safe: one per request.
 */
final class LokiRows implements LokiTape.Sink {
  /** Rows appended at once. */
  static final int BATCH_ROWS = 4096;

  private final Function<EventBatch, AppendResult> append;
  private final long received = receivedNanos();
  private long stored;
  private long refused;
  private final List<String> problems = new ArrayList<>();

  private final EventBatch batch = new EventBatch();
  private final int nanosField = batch.field("TimestampNanos");
  private final int observedField = batch.field("ObservedTimestamp");
  private final int bodyField = batch.field("Body");
  private final int serviceField = batch.field("ServiceName");
  private final int severityField = batch.field("SeverityText");
  private final Map<String, Integer> metadataFields = new HashMap<>();

  // the stream being written: its values, the same in each of its rows, encoded once
  private int[] labelFields;
  private String[] labelValues;
  private byte[][] labelBytes;
  private String service;
  private byte[] serviceBytes;
  private String level;
  private byte[] levelBytes;

  // a tape being written: its metadata names' fields, and whether the entry's level was seen
  private LokiTape tape;
  private int[] tapeFields = new int[0];
  private boolean entryLevelSeen;

  /**
   * @param append appends a batch to the table ({@link Source#append(EventBatch)})
   */
  LokiRows(Function<EventBatch, AppendResult> append) {
    this.append = append;
  }

  /**
   * @return the entries the table refused
   */
  long refused() {
    return refused;
  }

  /**
   * @return why, for the first ten refused
   */
  List<String> problems() {
    return problems;
  }

  /**
   * Writes decoded streams.
   *
   * @param streams the push's streams
   */
  void write(List<LokiPush.Stream> streams) {
    for (LokiPush.Stream s : streams) {
      stream(s.labels());
      for (LokiPush.Entry e : s.entries()) {
        begin(e.nanos());
        batch.putString(bodyField, e.line());
        String entryLevel = null;
        String[] m = e.metadata();
        for (int i = 0; i < m.length; i += 2) {
          Integer field = metadataFields.get(m[i]);
          if (field == null) {
            field = batch.field("LogAttributes." + m[i]);
            metadataFields.put(m[i], field);
          }
          batch.putString(field, m[i + 1]);
          if (level == null && entryLevel == null && isLevel(m[i])) {
            entryLevel = m[i + 1];
          }
        }
        if (entryLevel != null) {
          batch.putString(severityField, entryLevel);
        }
        endEntry();
      }
    }
    flush();
  }

  /**
   * Writes a push's tape.
   *
   * @param tape the push
   */
  void write(LokiTape tape) {
    this.tape = tape;
    tape.replay(this);
    flush();
  }

  @Override
  public void stream(Map<String, String> labels) {
    labelFields = new int[labels.size()];
    labelValues = new String[labelFields.length];
    labelBytes = new byte[labelFields.length][];
    int l = 0;
    for (Map.Entry<String, String> label : labels.entrySet()) {
      labelFields[l] = batch.field("ResourceAttributes." + label.getKey());
      labelValues[l] = label.getValue();
      labelBytes[l++] = utf8(label.getValue());
    }
    service = serviceName(labels);
    serviceBytes = utf8(service);
    level = level(labels);
    levelBytes = level == null ? null : utf8(level);
  }

  @Override
  public void entry(long nanos, byte[] utf8, int from, int to) {
    begin(nanos);
    batch.putString(bodyField, utf8, from, to);
    entryLevelSeen = false;
  }

  @Override
  public void metadata(int name, byte[] utf8, int from, int to) {
    if (name >= tapeFields.length) {
      int known = tapeFields.length;
      tapeFields = Arrays.copyOf(tapeFields, Math.max(name + 1, 2 * known));
      Arrays.fill(tapeFields, known, tapeFields.length, -1);
    }
    int field = tapeFields[name];
    if (field < 0) {
      field = batch.field("LogAttributes." + tape.name(name));
      tapeFields[name] = field;
    }
    batch.putString(field, utf8, from, to);
    if (level == null && !entryLevelSeen && isLevel(tape.name(name))) {
      entryLevelSeen = true;
      batch.putString(severityField, utf8, from, to);
    }
  }

  @Override
  public void endEntry() {
    if (level != null) {
      put(severityField, levelBytes, level);
    }
    batch.endEvent();
    if (batch.size() >= BATCH_ROWS) {
      flush();
    }
  }

  /** An entry's row begins: its times, and its stream's labels and service. */
  private void begin(long nanos) {
    batch.startEvent();
    batch.timestamp(Math.floorDiv(nanos, 1_000_000L));
    batch.putLong(nanosField, nanos);
    batch.putLong(observedField, received);
    for (int i = 0; i < labelFields.length; i++) {
      put(labelFields[i], labelBytes[i], labelValues[i]);
    }
    put(serviceField, serviceBytes, service);
  }

  /** A stream's value: its UTF-8 encoding, or the text itself when it has none. */
  private void put(int field, byte[] utf8, String text) {
    if (utf8 != null) {
      batch.putString(field, utf8, 0, utf8.length);
    } else {
      batch.putString(field, text); // the append refuses it, naming what is wrong
    }
  }

  /** The UTF-8 encoding of a text, or {@code null} when it has an unpaired surrogate. */
  private static byte[] utf8(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isHighSurrogate(c)
          && i + 1 < text.length()
          && Character.isLowSurrogate(text.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        return null;
      }
    }
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private void flush() {
    if (batch.size() == 0) {
      return;
    }
    AppendResult r;
    try {
      r = append.apply(batch);
    } catch (RuntimeException e) {
      ApiException a =
          WriteRefusals.answer(
              e,
              stored
                  + " entries of this push were stored before (a client sends the push again,"
                  + " so they may be stored twice)");
      throw a.headers().containsKey("Retry-After")
          ? new ApiException(ErrorCode.TOO_MANY_REQUESTS, a.getMessage(), a.headers())
          : a;
    }
    for (AppendResult.Rejection x : r.rejections()) {
      if (problems.size() < 10) {
        problems.add(x.reason());
      }
    }
    stored += batch.size() - r.rejections().size();
    refused += r.rejections().size();
    batch.clear();
  }

  private static String serviceName(Map<String, String> labels) {
    for (String name : new String[] {"service_name", "job", "app"}) {
      String v = labels.get(name);
      if (v != null && !v.isEmpty()) {
        return v;
      }
    }
    return "unknown_service";
  }

  private static String level(Map<String, String> labels) {
    String v = labels.get("level");
    return v != null ? v : labels.get("detected_level");
  }

  private static boolean isLevel(String name) {
    return name.equals("level") || name.equals("detected_level");
  }

  private static long receivedNanos() {
    Instant now = Instant.now();
    return now.getEpochSecond() * 1_000_000_000L + now.getNano();
  }
}
