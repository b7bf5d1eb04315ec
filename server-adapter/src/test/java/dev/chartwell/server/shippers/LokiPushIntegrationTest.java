package dev.chartwell.server.shippers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.PatternLayout;
import com.github.loki4j.logback.Loki4jAppender;
import com.github.loki4j.logback.PipelineConfigAppenderBase;
import dev.chartwell.server.Await;
import dev.chartwell.server.shippers.logproto.Push;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.xerial.snappy.Snappy;

/** Loki's push API, in both encodings, raw and through loki4j's Logback appender, unmodified. */
class LokiPushIntegrationTest {
  private static final long T0_NANOS = 1_764_324_000_123_456_789L;

  static String text(HttpResponse<byte[]> r) {
    return new String(r.body(), StandardCharsets.UTF_8);
  }

  @Test
  void jsonPushLabelsMetadataAndNanoseconds(@TempDir Path dir) throws Exception {
    try (ShipperServer s = new ShipperServer(dir)) {
      assertEquals("ready\n", text(s.send("GET", "/ready", null)));
      String body =
          "{\"streams\":[{\"stream\":{\"job\":\"checkout\",\"level\":\"warn\",\"env\":\"prod\"},"
              + "\"values\":[[\""
              + T0_NANOS
              + "\",\"payment slow\",{\"trace_id\":\"abc\"}],[\""
              + (T0_NANOS + 1)
              + "\",\"payment ok\"]]},"
              + "{\"stream\":{\"service_name\":\"cart\",\"job\":\"ignored\"},"
              + "\"values\":[[\""
              + (T0_NANOS + 2)
              + "\",\"added\",{\"detected_level\":\"debug\"}]]}]}";
      HttpResponse<byte[]> r =
          s.send(
              "POST",
              "/loki/api/v1/push",
              body.getBytes(StandardCharsets.UTF_8),
              "Authorization",
              s.bearer(),
              "Content-Type",
              "application/json");
      assertEquals(204, r.statusCode(), text(r));
      assertEquals(3, s.count("Loki", null));
      assertEquals(Map.of("checkout", 2L, "cart", 1L), s.counts("Loki", "ServiceName", null));
      assertEquals(Map.of("warn", 2L, "debug", 1L), s.counts("Loki", "SeverityText", null));
      assertEquals(1, s.count("Loki", "LogAttributes.trace_id:abc"));
      assertEquals(2, s.count("Loki", "ResourceAttributes.env:prod"));
      assertEquals(
          Map.of(
              String.valueOf(T0_NANOS), 1L,
              String.valueOf(T0_NANOS + 1), 1L,
              String.valueOf(T0_NANOS + 2), 1L),
          s.counts("Loki", "TimestampNanos", null));
      assertTrue(s.tables().containsKey("loki_logs"));
    }
  }

  @Test
  void protobufPushSnappyCompressed(@TempDir Path dir) throws Exception {
    try (ShipperServer s = new ShipperServer(dir)) {
      Push.PushRequest.Builder req = Push.PushRequest.newBuilder();
      Push.Stream.Builder stream =
          req.addStreamsBuilder()
              .setLabels("{app=\"shop\", level=\"error\", note=\"a \\\"q\\\"\"}");
      for (int i = 0; i < 2500; i++) {
        long t = T0_NANOS + i;
        stream
            .addEntriesBuilder()
            .setTimestamp(
                Push.Timestamp.newBuilder()
                    .setSeconds(t / 1_000_000_000L)
                    .setNanos((int) (t % 1_000_000_000L)))
            .setLine("line " + i)
            .addStructuredMetadata(Push.LabelPair.newBuilder().setName("n").setValue("" + i % 5));
      }
      byte[] body = Snappy.compress(req.build().toByteArray());
      HttpResponse<byte[]> r =
          s.send(
              "POST",
              "/loki/api/v1/push",
              body,
              "Authorization",
              s.basic(),
              "Content-Type",
              "application/x-protobuf");
      assertEquals(204, r.statusCode(), text(r));
      assertEquals(2500, s.count("Loki", null));
      assertEquals(500, s.count("Loki", "LogAttributes.n:3"));
      assertEquals(2500, s.count("Loki", "ResourceAttributes.note:\"a \\\"q\\\"\""));
      assertEquals(Map.of("shop", 2500L), s.counts("Loki", "ServiceName", null));
    }
  }

  /**
   * {@code --loki-table} names the table of pushes; Loki's tenant header {@code X-Scope-OrgID}
   * picks a table of the tenant's own, with a source of its name.
   */
  @Test
  void configuredTableAndATablePerTenant(@TempDir Path dir) throws Exception {
    try (ShipperServer s = new ShipperServer(dir, "--loki-table", "app_logs")) {
      for (String tenant : new String[] {null, "Team-A", "team-b", "Team-A"}) {
        String body =
            "{\"streams\":[{\"stream\":{\"app\":\"shop\"},\"values\":[[\""
                + T0_NANOS
                + "\",\"for "
                + tenant
                + "\"]]}]}";
        HttpResponse<byte[]> r =
            tenant == null
                ? s.send(
                    "POST",
                    "/loki/api/v1/push",
                    body.getBytes(StandardCharsets.UTF_8),
                    "Authorization",
                    s.bearer(),
                    "Content-Type",
                    "application/json")
                : s.send(
                    "POST",
                    "/loki/api/v1/push",
                    body.getBytes(StandardCharsets.UTF_8),
                    "Authorization",
                    s.bearer(),
                    "Content-Type",
                    "application/json",
                    "X-Scope-OrgID",
                    tenant);
        assertEquals(204, r.statusCode(), text(r));
      }
      assertTrue(
          s.tables()
              .keySet()
              .containsAll(java.util.Set.of("app_logs", "app_logs_team_a", "app_logs_team_b")),
          s.tables().keySet().toString());
      assertTrue(!s.tables().containsKey("loki_logs"));
      assertEquals(1, s.count("Loki", null)); // the configured table's source
      assertEquals(2, s.count("app_logs_team_a", null));
      assertEquals(1, s.count("app_logs_team_b", "team"));
      HttpResponse<byte[]> tooLong =
          s.send(
              "POST",
              "/loki/api/v1/push",
              "{\"streams\":[]}".getBytes(StandardCharsets.UTF_8),
              "Authorization",
              s.bearer(),
              "Content-Type",
              "application/json",
              "X-Scope-OrgID",
              "t".repeat(151));
      assertEquals(400, tooLong.statusCode(), text(tooLong));
      assertTrue(text(tooLong).contains("X-Scope-OrgID"), text(tooLong));
    }
  }

  @Test
  void refusesWhatWillNeverBeAcceptedAndStoresNothingOfIt(@TempDir Path dir) throws Exception {
    try (ShipperServer s = new ShipperServer(dir)) {
      String[][] cases = {
        {
          "application/json",
          "{\"streams\":[{\"stream\":{\"a\":\"b\"},\"values\":[[\"1764324000000000000\",\"ok\"],[\"x\",\"bad\"]]}]}",
          "epoch nanoseconds"
        },
        {
          "application/json",
          "{\"streams\":[{\"stream\":{\"9a\":\"b\"},\"values\":[]}]}",
          "not a label name"
        },
        {"application/json", "not json", "not JSON"},
        {"application/x-protobuf", "not snappy at all", "snappy"},
      };
      for (String[] c : cases) {
        HttpResponse<byte[]> r =
            s.send(
                "POST",
                "/loki/api/v1/push",
                c[1].getBytes(StandardCharsets.UTF_8),
                "Authorization",
                s.bearer(),
                "Content-Type",
                c[0]);
        assertEquals(400, r.statusCode(), text(r));
        assertTrue(text(r).contains(c[2]), text(r));
      }
      byte[] badLabels =
          Snappy.compress(
              Push.PushRequest.newBuilder()
                  .addStreams(Push.Stream.newBuilder().setLabels("{app=shop}"))
                  .build()
                  .toByteArray());
      HttpResponse<byte[]> r =
          s.send(
              "POST",
              "/loki/api/v1/push",
              badLabels,
              "Authorization",
              s.bearer(),
              "Content-Type",
              "application/x-protobuf");
      assertEquals(400, r.statusCode(), text(r));
      assertTrue(text(r).contains("must be quoted"), text(r));
      assertTrue(!s.tables().containsKey("loki_logs"));
      assertEquals(
          401,
          s.send(
                  "POST",
                  "/loki/api/v1/push",
                  "{}".getBytes(StandardCharsets.UTF_8),
                  "Content-Type",
                  "application/json")
              .statusCode());
    }
  }

  @Test
  void loki4jAppenderInJsonAndProtobufModes(@TempDir Path dir) throws Exception {
    try (ShipperServer s = new ShipperServer(dir)) {
      int n = 3000;
      for (boolean protobuf : new boolean[] {false, true}) {
        LoggerContext ctx = new LoggerContext();
        Loki4jAppender appender = new Loki4jAppender();
        appender.setContext(ctx);
        PipelineConfigAppenderBase.HttpCfg http = new PipelineConfigAppenderBase.HttpCfg();
        http.setUrl(s.url() + "/loki/api/v1/push");
        PipelineConfigAppenderBase.BasicAuth auth = new PipelineConfigAppenderBase.BasicAuth();
        auth.setUsername(s.serviceId);
        auth.setPassword(s.token);
        http.setAuth(auth);
        http.setUseProtobufApi(protobuf);
        appender.setHttp(http);
        PipelineConfigAppenderBase.BatchCfg batch = new PipelineConfigAppenderBase.BatchCfg();
        batch.setMaxItems(500);
        batch.setTimeoutMs(100);
        appender.setBatch(batch);
        String mode = protobuf ? "protobuf" : "json";
        appender.setLabels("app=loki4j\nmode=" + mode + "\nlevel=%level");
        appender.setStructuredMetadata("thread=%thread");
        PatternLayout layout = new PatternLayout();
        layout.setContext(ctx);
        layout.setPattern("%msg");
        layout.start();
        appender.setMessage(layout);
        appender.start();
        Logger log = ctx.getLogger("shop");
        log.setAdditive(false);
        log.addAppender(appender);
        for (int i = 0; i < n; i++) {
          if (i % 3 == 0) {
            log.warn("order {} delayed", i);
          } else {
            log.info("order {} placed", i);
          }
        }
        appender.stop();
        ctx.stop();
        Await.until(
            mode + " events stored", () -> s.count("Loki", "ResourceAttributes.mode:" + mode) >= n);
        assertEquals(n, s.count("Loki", "ResourceAttributes.mode:" + mode));
        assertEquals(
            n / 3, s.count("Loki", "ResourceAttributes.mode:" + mode + " SeverityText:WARN"));
        assertEquals(
            1, s.count("Loki", "ResourceAttributes.mode:" + mode + " \"order 2999 placed\""));
      }
      assertEquals(Map.of("loki4j", 2L * n), s.counts("Loki", "ServiceName", null));
    }
  }
}
