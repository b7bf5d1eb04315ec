package dev.chartwell.server.charts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.chartwell.engine.ChartResult;
import dev.chartwell.engine.Granularity;
import dev.chartwell.server.http.Json;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The streamed chart answer says exactly what the answer built as a Jackson tree said before it:
 * the same rows, keys, integers, strings and doubles (each double reads back as the same value).
 */
class ChartJsonProperties {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final Json JSON = new Json();

  @Test
  void theStreamedAnswerIsTheTreeAnswer() {
    qt().withExamples(500).forAll(longs().all()).checkAssert(ChartJsonProperties::sameAnswer);
  }

  @Test
  void anEmptyAnswerIsAnEmptyDataArray() throws Exception {
    ChartResult empty = new ChartResult(Granularity.named("1m").orElseThrow(), List.of());
    assertEquals("{\"data\":[]}", text(new ChartJson(empty, false)));
  }

  @Test
  void countsAreIntegersAndRatioGapsAreNull() throws Exception {
    List<Number> values = new ArrayList<>();
    values.add(7L);
    values.add(null);
    ChartResult r =
        new ChartResult(
            Granularity.named("1m").orElseThrow(),
            List.of(new ChartResult.Row(60_000L, List.of("api", ""), values)));
    assertEquals(
        "{\"data\":[{\"ts_bucket\":60000,\"group\":[\"api\",\"\"],\"series_0.data\":7}]}",
        text(new ChartJson(r, false)));
    ChartResult ratio =
        new ChartResult(
            Granularity.named("1m").orElseThrow(),
            List.of(new ChartResult.Row(0L, List.of(), java.util.Arrays.asList((Number) null))));
    assertEquals(
        "{\"data\":[{\"ts_bucket\":0,\"group\":[],\"series_0.data\":null}]}",
        text(new ChartJson(ratio, true)));
  }

  /**
   * A day by minute and service of 17-digit quantiles (the benchmark's Q2) fits the hinted size, so
   * that its buffer is allocated once instead of at the hint and then at twice it.
   */
  @Test
  void theHintHoldsAQuantileChartByService() throws Exception {
    SplittableRandom random = new SplittableRandom(2);
    List<ChartResult.Row> rows = new ArrayList<>();
    for (long minute = 0; minute < 1440; minute++) {
      for (int service = 0; service < 10; service++) {
        double value = 100 + random.nextDouble() * 50; // 17 significant digits, mostly
        rows.add(
            new ChartResult.Row(
                1_767_139_200_000L + minute * 60_000, List.of("svc-" + service), List.of(value)));
      }
    }
    ChartJson body =
        new ChartJson(new ChartResult(Granularity.named("1m").orElseThrow(), rows), false);
    int written = JSON.write(body).remaining();
    assertTrue(written > 1_100_000, written + " bytes");
    assertTrue(body.sizeHint() >= written, body.sizeHint() + " hinted, " + written + " written");
  }

  private static String text(ChartJson body) throws Exception {
    ByteBuffer b = JSON.write(body);
    assertTrue(body.sizeHint() > 0);
    return StandardCharsets.UTF_8.decode(b).toString();
  }

  private static void sameAnswer(long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    boolean ratio = random.nextInt(4) == 0;
    ChartResult result = result(random, ratio);
    try {
      JsonNode streamed = MAPPER.readTree(text(new ChartJson(result, ratio)));
      JsonNode reference = MAPPER.readTree(MAPPER.writeValueAsBytes(tree(result, ratio)));
      assertEquals(reference, streamed);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  /** The answer as the chart route built it before the streaming writer. */
  private static ObjectNode tree(ChartResult result, boolean ratio) {
    ObjectNode body = MAPPER.createObjectNode();
    ArrayNode data = body.putArray("data");
    for (ChartResult.Row row : result.rows()) {
      ObjectNode r = data.addObject();
      r.put("ts_bucket", row.bucket());
      ArrayNode group = r.putArray("group");
      row.group().forEach(group::add);
      for (int i = 0; i < row.values().size(); i++) {
        Number v = row.values().get(i);
        String key = "series_" + i + ".data";
        if (v instanceof Long l) {
          r.put(key, l);
        } else if (v != null) {
          r.put(key, v.doubleValue());
        } else if (ratio) {
          r.putNull(key);
        }
      }
    }
    return body;
  }

  private static ChartResult result(SplittableRandom random, boolean ratio) {
    int series = ratio ? 1 : 1 + random.nextInt(6); // six: more than the writer's cached names
    int groups = random.nextInt(4);
    int rows = random.nextInt(40);
    List<ChartResult.Row> out = new ArrayList<>();
    for (int i = 0; i < rows; i++) {
      List<String> group = new ArrayList<>();
      for (int g = 0; g < groups; g++) {
        group.add(groupValue(random));
      }
      List<Number> values = new ArrayList<>();
      for (int s = 0; s < series; s++) {
        values.add(value(random, ratio));
      }
      long bucket = random.nextBoolean() ? random.nextLong() : 1_767_225_600_000L + i * 60_000L;
      out.add(new ChartResult.Row(bucket, group, values));
    }
    return new ChartResult(Granularity.named("1m").orElseThrow(), out);
  }

  private static Number value(SplittableRandom random, boolean ratio) {
    return switch (random.nextInt(ratio ? 3 : 4)) {
      case 0 -> null;
      case 1 -> anyDouble(random);
      case 2 -> Math.exp(random.nextGaussian() * 3);
      default ->
          random.nextBoolean() ? (Number) random.nextLong() : (Number) (long) random.nextInt(1000);
    };
  }

  private static double anyDouble(SplittableRandom random) {
    double[] special = {
      0.0,
      -0.0,
      Double.MIN_VALUE,
      Double.MAX_VALUE,
      1e-300,
      1e23,
      2e-3,
      0.1,
      1.0 / 3,
      Double.NaN,
      Double.POSITIVE_INFINITY,
      Double.NEGATIVE_INFINITY
    };
    return random.nextBoolean()
        ? special[random.nextInt(special.length)]
        : Double.longBitsToDouble(random.nextLong());
  }

  private static String groupValue(SplittableRandom random) {
    String[] samples = {
      "",
      "api",
      "svc-3",
      "quote \" and \\ back",
      "é ü 日本",
      "tab\tnew\nline",
      "😀",
      "bell \u0007 unit \u001f del \u007f"
    };
    return samples[random.nextInt(samples.length)]
        + (random.nextBoolean() ? "" : Integer.toString(random.nextInt(100)));
  }
}
