package dev.chartwell.server.shippers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.chartwell.engine.AppendResult;
import dev.chartwell.server.http.ApiException;
import dev.chartwell.server.http.Json;
import dev.chartwell.server.shippers.logproto.Push;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * A Loki push read from its bytes onto a tape ({@link LokiJsonTape}, {@link LokiProtobufTape}) must
 * make exactly the rows the general reader ({@link LokiPush#json}, {@link LokiPush#protobuf})
 * makes, and must leave to it every push it does not read the same way: a push the general reader
 * refuses is never taken.
 */
class LokiTapeTest {
  private static final ObjectMapper MAPPER = new Json().mapper();

  @Test
  void takesTheCommonShapes() {
    String[] bodies = {
      "{\"streams\":[{\"stream\":{\"service_name\":\"api\",\"level\":\"info\"},"
          + "\"values\":[[\"1767000000000000001\",\"GET /a took 5\"],"
          + "[\"1767000000000000002\",\"x\",{\"trace_id\":\"ab\",\"host\":\"h1\"}]]}]}",
      // whitespace everywhere, escapes and characters past ASCII, empty metadata and values
      " {\n \"streams\" : [ { \"stream\" : { \"job\" : \"caf\u00e9\" } , \"values\" : [ [ \"7\" ,"
          + " \"a\\\"b\\\\c\\n\\u00e9\\ud83d\\ude00 \u20ac\" , { } ] ] } ,\r\n"
          + " {\"stream\":{},\"values\":[]} , {\"stream\":{\"app\":\"w\"},\"values\":"
          + "[[\"9\",\"\",{\"detected_level\":\"warn\",\"level\":\"error\",\"k\\u00e9y\":\"v\"}]]}"
          + " ] } \n",
      "{\"streams\":[]}",
    };
    for (String body : bodies) {
      byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
      assertNotNull(LokiJsonTape.readOrNull(bytes), body);
      assertEquals(general(bytes), tape(bytes), body);
    }
  }

  @Test
  void leavesEverythingElseToTheGeneralReader() {
    String entry = "[\"1767000000000000001\",\"line\"]";
    String[] bodies = {
      "{\"streams\":[{\"values\":[" + entry + "],\"stream\":{\"a\":\"b\"}}]}", // values first
      "{\"streams\":[{\"stream\":{\"a\":\"b\"},\"values\":[[1767000000000000001,\"l\"]]}]}",
      "{\"streams\":[{\"stream\":{\"a\":\"b\",\"a\":\"c\"},\"values\":[" + entry + "]}]}",
      "{\"streams\":[{\"stream\":{\"a-b\":\"c\"},\"values\":[" + entry + "]}]}",
      "{\"streams\":[{\"stream\":{},\"values\":[[\"1\",\"l\",{\"k\":\"1\",\"k\":\"2\"}]]}]}",
      "{\"streams\":[{\"stream\":{},\"values\":[[\"1\",\"l\",{\"\":\"1\"}]]}]}",
      "{\"streams\":[{\"stream\":{},\"values\":[[\"1\",\"l\",{\"k\":1}]]}]}",
      "{\"streams\":[{\"stream\":{},\"values\":[[\"0\",\"l\"]]}]}",
      "{\"streams\":[{\"stream\":{},\"values\":[[\"\",\"l\"]]}]}",
      "{\"streams\":[{\"stream\":{},\"values\":[[\"99999999999999999999\",\"l\"]]}]}",
      "{\"streams\":[{\"stream\":{},\"values\":[[\"9223372036854775808\",\"l\"]]}]}",
      "{\"streams\":[{\"stream\":{},\"values\":[[\"1\",\"l\",{},4]]}]}",
      "{\"streams\":[],\"other\":1}",
      "{\"\\u0073treams\":[]}",
      "{\"streams\":[]} x",
      "{\"streams\":[{\"stream\":{},\"values\":[[\"1\",\"bad \\ud800 surrogate\"]]}]}",
      "{\"streams\":[{\"stream\":{},\"values\":[[\"1\",\"raw\ttab\"]]}]}",
    };
    for (String body : bodies) {
      assertNull(LokiJsonTape.readOrNull(body.getBytes(StandardCharsets.UTF_8)), body);
    }
    byte[] invalidUtf8 =
        "{\"streams\":[{\"stream\":{},\"values\":[[\"1\",\"\u00e9\"]]}]}"
            .getBytes(StandardCharsets.UTF_8);
    invalidUtf8[invalidUtf8.length - 7] = (byte) 0xFF;
    assertNull(LokiJsonTape.readOrNull(invalidUtf8));
  }

  /** Random pushes, as clients write them, are taken and make the general reader's rows. */
  @Test
  void randomPushesMakeTheGeneralReadersRows() {
    qt().withExamples(300)
        .forAll(longs().all())
        .checkAssert(
            seed -> {
              byte[] body = push(new SplittableRandom(seed));
              assertNotNull(
                  LokiJsonTape.readOrNull(body), new String(body, StandardCharsets.UTF_8));
              assertEquals(general(body), tape(body));
            });
  }

  /**
   * A push with a byte changed, dropped or added: the tape takes it only when the general reader
   * takes it too, with the same rows.
   */
  @Test
  void damagedPushesAreTakenOnlyAsTheGeneralReaderTakesThem() {
    byte[] noise = " \"{}[],:\\0123456789aeu\u00e9".getBytes(StandardCharsets.UTF_8);
    qt().withExamples(2000)
        .forAll(longs().all())
        .checkAssert(
            seed -> {
              SplittableRandom random = new SplittableRandom(seed);
              byte[] body = damage(push(random), random, noise);
              String text = new String(body, StandardCharsets.UTF_8);
              if (LokiJsonTape.readOrNull(body) != null) {
                assertEquals(general(body), tape(body), text);
              }
            });
  }

  @Test
  void takesProtobufPushesAsTheGeneratedParserReadsThem() {
    qt().withExamples(300)
        .forAll(longs().all())
        .checkAssert(
            seed -> {
              byte[] raw = protobuf(new SplittableRandom(seed)).toByteArray();
              assertNotNull(LokiProtobufTape.readOrNull(raw));
              assertEquals(generalProtobuf(raw), tapeProtobuf(raw));
            });
  }

  @Test
  void leavesUnusualProtobufPushesToTheGeneralReader() {
    Push.Entry entry =
        Push.Entry.newBuilder()
            .setTimestamp(Push.Timestamp.newBuilder().setSeconds(1_767_000_000L).setNanos(5))
            .setLine("l")
            .build();
    Push.Stream stream = Push.Stream.newBuilder().setLabels("{a=\"b\"}").addEntries(entry).build();
    byte[] good = Push.PushRequest.newBuilder().addStreams(stream).build().toByteArray();
    assertNotNull(LokiProtobufTape.readOrNull(good));
    List<byte[]> unusual =
        List.of(
            push(stream.toBuilder().setLabels("a=b").build()), // not a selector
            push(stream.toBuilder().clearLabels().build()),
            push(stream.toBuilder().setEntries(0, entry.toBuilder().clearTimestamp()).build()),
            push(
                stream.toBuilder()
                    .setEntries(
                        0,
                        entry.toBuilder().setTimestamp(Push.Timestamp.newBuilder().setSeconds(-1)))
                    .build()),
            push(
                stream.toBuilder()
                    .setEntries(
                        0,
                        entry.toBuilder()
                            .addStructuredMetadata(Push.LabelPair.newBuilder().setValue("v")))
                    .build()),
            push(
                stream.toBuilder()
                    .setEntries(
                        0,
                        entry.toBuilder()
                            .addStructuredMetadata(pair("k", "1"))
                            .addStructuredMetadata(pair("k", "2")))
                    .build()),
            concat(good, new byte[] {(byte) (1 << 3 | 3), (byte) (1 << 3 | 4)}), // a group
            Arrays.copyOf(good, good.length - 1), // cut short
            concat(good, new byte[] {(byte) (1 << 3 | 2), 0}), // a second, empty stream: no labels
            invalidUtf8(good));
    for (byte[] raw : unusual) {
      assertNull(LokiProtobufTape.readOrNull(raw));
    }
    // unknown fields are skipped, as the generated parser skips them
    byte[] unknown =
        concat(good, new byte[] {(byte) (9 << 3), 1, (byte) (10 << 3 | 5), 1, 2, 3, 4});
    assertNotNull(LokiProtobufTape.readOrNull(unknown));
    assertEquals(generalProtobuf(unknown), tapeProtobuf(unknown));
  }

  @Test
  void damagedProtobufPushesAreTakenOnlyAsTheGeneratedParserTakesThem() {
    byte[] noise = {0, 1, 2, 8, 10, 16, 18, 26, 0x7F, (byte) 0x80, (byte) 0xC3, (byte) 0xFF};
    qt().withExamples(2000)
        .forAll(longs().all())
        .checkAssert(
            seed -> {
              SplittableRandom random = new SplittableRandom(seed);
              byte[] raw = protobuf(random).toByteArray();
              if (raw.length == 0) {
                return;
              }
              raw = damage(raw, random, noise);
              if (LokiProtobufTape.readOrNull(raw) != null) {
                assertEquals(generalProtobuf(raw), tapeProtobuf(raw));
              }
            });
  }

  private static Push.PushRequest protobuf(SplittableRandom random) {
    Push.PushRequest.Builder push = Push.PushRequest.newBuilder();
    String[] labels = {"service_name", "job", "app", "level", "detected_level", "env", "pod"};
    String[] names = {"trace_id", "host", "level", "detected_level", "k\u00e9y", "x y"};
    int streams = random.nextInt(4);
    for (int s = 0; s < streams; s++) {
      StringBuilder selector = new StringBuilder("{");
      int count = 1 + random.nextInt(3);
      for (int l = 0; l < count; l++) {
        selector
            .append(l > 0 ? ", " : "")
            .append(labels[l * 2 + random.nextInt(2)])
            .append("=\"")
            .append(text(random).replace("\\", "").replace("\"", "").replace("\n", ""))
            .append('"');
      }
      Push.Stream.Builder stream =
          push.addStreamsBuilder().setLabels(selector.append('}').toString());
      int entries = random.nextInt(6);
      for (int e = 0; e < entries; e++) {
        Push.Entry.Builder entry =
            stream
                .addEntriesBuilder()
                .setTimestamp(
                    Push.Timestamp.newBuilder()
                        .setSeconds(1 + random.nextLong(9_000_000_000L))
                        .setNanos(random.nextInt(1_000_000_000)))
                .setLine(text(random));
        int pairs = random.nextInt(4);
        for (int p = 0; p < pairs; p++) {
          entry.addStructuredMetadata(pair(names[p * 2 + random.nextInt(2)], text(random)));
        }
      }
    }
    return push.build();
  }

  private static Push.LabelPair pair(String name, String value) {
    return Push.LabelPair.newBuilder().setName(name).setValue(value).build();
  }

  private static byte[] push(Push.Stream stream) {
    return Push.PushRequest.newBuilder().addStreams(stream).build().toByteArray();
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  /** The line's byte made invalid UTF-8. */
  private static byte[] invalidUtf8(byte[] raw) {
    byte[] out = raw.clone();
    for (int i = out.length - 1; i >= 0; i--) {
      if (out[i] == 'l') {
        out[i] = (byte) 0xFF;
        return out;
      }
    }
    throw new IllegalStateException("no line");
  }

  private static Object generalProtobuf(byte[] raw) {
    List<LokiPush.Stream> streams;
    try {
      streams = LokiPush.protobuf(raw);
    } catch (ApiException e) {
      return e.getMessage();
    }
    return rows(rows -> rows.write(streams));
  }

  private static Object tapeProtobuf(byte[] raw) {
    LokiTape tape = LokiProtobufTape.readOrNull(raw);
    return rows(rows -> rows.write(tape));
  }

  private static byte[] damage(byte[] body, SplittableRandom random, byte[] noise) {
    int at = random.nextInt(body.length);
    byte b = noise[random.nextInt(noise.length)];
    return switch (random.nextInt(3)) {
      case 0 -> {
        byte[] out = body.clone();
        out[at] = b;
        yield out;
      }
      case 1 -> {
        byte[] out = new byte[body.length - 1];
        System.arraycopy(body, 0, out, 0, at);
        System.arraycopy(body, at + 1, out, at, body.length - at - 1);
        yield out;
      }
      default -> {
        byte[] out = new byte[body.length + 1];
        System.arraycopy(body, 0, out, 0, at);
        out[at] = b;
        System.arraycopy(body, at, out, at + 1, body.length - at);
        yield out;
      }
    };
  }

  /** A push as a client writes it: a few streams of entries, some with structured metadata. */
  private static byte[] push(SplittableRandom random) {
    StringBuilder out = new StringBuilder("{\"streams\":[");
    int streams = random.nextInt(4);
    for (int s = 0; s < streams; s++) {
      out.append(s > 0 ? "," : "").append("{\"stream\":{");
      String[] labels = {"service_name", "job", "app", "level", "detected_level", "env", "pod"};
      int count = random.nextInt(4);
      for (int l = 0; l < count; l++) {
        out.append(l > 0 ? "," : "")
            .append(quoted(labels[l * 2 + random.nextInt(2)]))
            .append(':')
            .append(quoted(text(random)));
      }
      out.append("},").append(space(random)).append("\"values\":[");
      int entries = random.nextInt(6);
      for (int e = 0; e < entries; e++) {
        out.append(e > 0 ? "," + space(random) : "")
            .append("[\"")
            .append(1 + random.nextLong(Long.MAX_VALUE - 1) / (random.nextBoolean() ? 1 : 1000))
            .append("\",")
            .append(quoted(text(random)));
        if (random.nextBoolean()) {
          out.append(",{");
          String[] names = {"trace_id", "host", "level", "detected_level", "k\u00e9y", "x y"};
          int pairs = random.nextInt(4);
          for (int p = 0; p < pairs; p++) {
            out.append(p > 0 ? "," : "")
                .append(quoted(names[(p * 2 + random.nextInt(2)) % names.length]))
                .append(space(random))
                .append(':')
                .append(quoted(text(random)));
          }
          out.append('}');
        }
        out.append(']');
      }
      out.append("]}");
    }
    return out.append("]}").toString().getBytes(StandardCharsets.UTF_8);
  }

  private static String space(SplittableRandom random) {
    return random.nextInt(4) == 0 ? " \n\t\r".substring(random.nextInt(4)) : "";
  }

  /** Text with what JSON escapes and what is past ASCII, as JSON writes it. */
  private static String text(SplittableRandom random) {
    String[] pieces = {"GET /api", " ", "\"", "\\", "\n", "\u00e9", "\u20ac", "\ud83d\ude00", "0"};
    StringBuilder s = new StringBuilder();
    int n = random.nextInt(6);
    for (int i = 0; i < n; i++) {
      s.append(pieces[random.nextInt(pieces.length)]);
    }
    return s.toString();
  }

  private static String quoted(String text) {
    try {
      return MAPPER.writeValueAsString(text);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** The rows the general reader makes, or what it says is wrong. */
  private static Object general(byte[] body) {
    List<LokiPush.Stream> streams;
    try {
      streams = LokiPush.json(MAPPER, body);
    } catch (ApiException e) {
      return e.getMessage();
    }
    return rows(rows -> rows.write(streams));
  }

  private static Object tape(byte[] body) {
    LokiTape tape = LokiJsonTape.readOrNull(body);
    return rows(rows -> rows.write(tape));
  }

  /** Each row's fields but the time of receipt, which differs between two writers. */
  private static List<Map<String, Object>> rows(java.util.function.Consumer<LokiRows> write) {
    List<Map<String, Object>> out = new ArrayList<>();
    write.accept(
        new LokiRows(
            batch -> {
              for (int row = 0; row < batch.size(); row++) {
                Map<String, Object> fields = new TreeMap<>(batch.event(row).fields());
                fields.remove("ObservedTimestamp");
                fields.put("@time", batch.timestampAt(row));
                out.add(fields);
              }
              return new AppendResult(batch.size(), List.of());
            }));
    return out;
  }
}
