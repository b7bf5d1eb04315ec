package dev.chartwell.engine.internal.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chartwell.engine.Event;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Events survive encoding exactly: values, types, double bits, Unicode text and field order. */
class EventCodecTest {
  private static final double[] SPECIAL_DOUBLES = {
    0.0,
    -0.0,
    1.0,
    -1.5,
    Double.MIN_VALUE,
    -Double.MIN_VALUE,
    Double.MIN_NORMAL,
    Double.MAX_VALUE,
    -Double.MAX_VALUE,
    0.1,
    1e300,
    Double.POSITIVE_INFINITY,
    Double.NEGATIVE_INFINITY
  };

  private static final long[] SPECIAL_LONGS = {
    0, 1, -1, 63, 64, -64, -65, 127, 128, Long.MIN_VALUE, Long.MAX_VALUE, 1_767_225_600_000L
  };

  @Test
  void randomEventsRoundTripExactly() {
    long seed = new Random().nextLong();
    Random random = new Random(seed);
    EventCodec encoder = new EventCodec();
    EventCodec decoder = new EventCodec();
    try {
      for (int n = 0; n < 5_000; n++) {
        Event event = randomEvent(random);
        byte[] bytes = encoder.encode(event);
        Event back = decoder.decode(bytes);
        assertEquals(event.timestamp(), back.timestamp());
        assertEquals(event.fields(), back.fields());
        assertEquals(
            new ArrayList<>(event.fields().keySet()), new ArrayList<>(back.fields().keySet()));
        for (Map.Entry<String, Object> f : event.fields().entrySet()) {
          Object v = back.fields().get(f.getKey());
          if (f.getValue() instanceof Double d) {
            assertEquals(Double.doubleToRawLongBits(d), Double.doubleToRawLongBits((Double) v));
          } else if (f.getValue() != null) {
            assertEquals(f.getValue().getClass(), v.getClass());
          }
        }
      }
    } catch (AssertionError | RuntimeException e) {
      throw new AssertionError("seed " + seed + ": " + e.getMessage(), e);
    }
  }

  @Test
  void stringsAreStandardUtf8() {
    EventCodec codec = new EventCodec();
    String text = "a\u00e9\u0800\uffff\ud83d\ude00z\u0000";
    byte[] bytes = codec.encode(new Event(5, Map.of("k", text)));
    byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
    // version, timestamp, count, name length, 'k', tag, value length, value
    assertEquals(7 + utf8.length, bytes.length);
    assertEquals(utf8.length, bytes[6]);
    byte[] value = java.util.Arrays.copyOfRange(bytes, 7, bytes.length);
    assertArrayEquals(utf8, value);
  }

  @Test
  void longStringsAndManyFieldsRoundTrip() {
    EventCodec codec = new EventCodec();
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("ascii", "x".repeat(100_000));
    fields.put("mixed", "\u00e9".repeat(70) + "y".repeat(200));
    fields.put("ascii127", "z".repeat(127));
    fields.put("ascii128", "z".repeat(128));
    for (int i = 0; i < 1_000; i++) {
      fields.put("f" + i, (long) i);
    }
    Event event = new Event(1, fields);
    assertEquals(event, codec.decode(codec.encode(event)));
    Event small = new Event(2, Map.of("a", "b"));
    assertEquals(small, codec.decode(codec.encode(small)));
  }

  @Test
  void unpairedSurrogatesUnsupportedTypesAndNullNamesAreRejected() {
    EventCodec codec = new EventCodec();
    for (String bad : List.of("\ud800", "a\udc00b", "\ud800x", "x".repeat(200) + "\udbff")) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class, () -> codec.encode(new Event(1, Map.of("f", bad))));
      assertTrue(e.getMessage().contains("surrogate"), e.getMessage());
      assertThrows(
          IllegalArgumentException.class, () -> codec.encode(new Event(1, Map.of(bad, "v"))));
    }
    for (Object value : List.<Object>of(1, 1.5f, BigDecimal.ONE, List.of())) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class, () -> codec.encode(new Event(1, Map.of("f", value))));
      assertTrue(e.getMessage().contains("'f'"), e.getMessage());
    }
    Map<String, Object> nullName = new HashMap<>();
    nullName.put(null, "v");
    assertThrows(IllegalArgumentException.class, () -> codec.encode(new Event(1, nullName)));
    Event ok = new Event(3, Map.of("still", "works"));
    assertEquals(ok, codec.decode(codec.encode(ok)));
  }

  @Test
  void malformedBytesAreRejectedNotMisread() {
    EventCodec codec = new EventCodec();
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("s", "text");
    fields.put("l", -5L);
    fields.put("d", 2.5);
    fields.put("b", true);
    fields.put("n", null);
    byte[] bytes = codec.encode(new Event(9, fields));
    for (int length = 0; length < bytes.length; length++) {
      int n = length;
      assertThrows(IllegalArgumentException.class, () -> codec.decode(bytes, 0, n), "cut " + n);
    }
    byte[] longer = java.util.Arrays.copyOf(bytes, bytes.length + 1);
    assertThrows(IllegalArgumentException.class, () -> codec.decode(longer));
    byte[] version = bytes.clone();
    version[0] = 2;
    assertThrows(IllegalArgumentException.class, () -> codec.decode(version));
    byte[] tag = bytes.clone();
    tag[5] = 9; // the first field's type tag
    assertThrows(IllegalArgumentException.class, () -> codec.decode(tag));
    assertEquals(new Event(9, fields), codec.decode(bytes));
  }

  static Event randomEvent(Random random) {
    long timestamp =
        random.nextInt(4) == 0
            ? SPECIAL_LONGS[random.nextInt(SPECIAL_LONGS.length)]
            : 1_700_000_000_000L + random.nextInt(1_000_000_000);
    int n = random.nextInt(12);
    Map<String, Object> fields = random.nextBoolean() ? new LinkedHashMap<>() : new HashMap<>();
    for (int i = 0; i < n; i++) {
      String name =
          random.nextInt(3) == 0 ? randomString(random, 20) : "field" + random.nextInt(40);
      fields.put(name, randomValue(random));
    }
    return new Event(timestamp, fields);
  }

  private static Object randomValue(Random random) {
    switch (random.nextInt(9)) {
      case 0:
        return null;
      case 1:
        return random.nextBoolean();
      case 2:
        return SPECIAL_LONGS[random.nextInt(SPECIAL_LONGS.length)];
      case 3:
        return random.nextLong() >> random.nextInt(64);
      case 4:
        return SPECIAL_DOUBLES[random.nextInt(SPECIAL_DOUBLES.length)];
      case 5:
        double d;
        do {
          d = Double.longBitsToDouble(random.nextLong());
        } while (Double.isNaN(d));
        return d;
      case 6:
        return random.nextGaussian() * 1_000;
      default:
        return randomString(random, random.nextInt(10) == 0 ? 400 : 30);
    }
  }

  /** Valid Unicode text: ASCII, two- and three-byte characters, and supplementary ones. */
  static String randomString(Random random, int maxChars) {
    int n = random.nextInt(maxChars + 1);
    StringBuilder sb = new StringBuilder(n);
    int kind = random.nextInt(4); // mostly one script per string, like real text
    for (int i = 0; i < n; i++) {
      int k = random.nextInt(5) == 0 ? random.nextInt(4) : kind;
      switch (k) {
        case 0 -> sb.append((char) random.nextInt(0x80));
        case 1 -> sb.append((char) (0x80 + random.nextInt(0x800 - 0x80)));
        case 2 -> {
          char c;
          do {
            c = (char) (0x800 + random.nextInt(0x10000 - 0x800));
          } while (Character.isSurrogate(c));
          sb.append(c);
        }
        default -> sb.appendCodePoint(0x10000 + random.nextInt(0x110000 - 0x10000));
      }
    }
    return sb.toString();
  }
}
