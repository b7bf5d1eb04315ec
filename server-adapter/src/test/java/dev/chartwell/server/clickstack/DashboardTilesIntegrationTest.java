package dev.chartwell.server.clickstack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.chartwell.server.ChartwellServer;
import dev.chartwell.server.SharedServer;
import dev.chartwell.server.TestServers;
import dev.chartwell.server.http.HttpTestClient;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every tile display type of the document round-trips and is checked by its own branch; filter
 * keys, containers and the saved query are checked; {@code dashboards/validate} says what create
 * would say and stores nothing.
 */
class DashboardTilesIntegrationTest {
  static final ObjectMapper MAPPER = new ObjectMapper();
  static final String SERVICES = "/v1/organizations/" + TestServers.ORG + "/services";
  static final String ADMIN = HttpTestClient.basic("ADMIN", "adminsecret1");

  @TempDir Path dataDir;
  ChartwellServer server;
  HttpTestClient http;
  String dashboards;
  String source;

  /**
   * The cases of each branch's rules share one server, set up as each other test's own: every
   * dashboard they send is refused, so the service stays without dashboards.
   */
  @RegisterExtension
  static final SharedServer<DashboardTilesIntegrationTest> SHARED =
      new SharedServer<>(
          DashboardTilesIntegrationTest::new,
          (t, dir) -> {
            t.dataDir = dir;
            t.start();
          },
          DashboardTilesIntegrationTest::stop);

  /** Starts this test's own server with a service and a log source. */
  void start() throws Exception {
    server = TestServers.start(dataDir);
    http = new HttpTestClient(server.port());
    String svc =
        ok(send("POST", SERVICES, "{\"name\":\"D\",\"provider\":\"aws\",\"region\":\"us-east-1\"}"))
            .get("service")
            .get("id")
            .textValue();
    dashboards = SERVICES + "/" + svc + "/clickstack/dashboards";
    source =
        ok(send(
                "POST",
                SERVICES + "/" + svc + "/clickstack/sources",
                "{\"name\":\"logs\",\"kind\":\"log\"}"))
            .get("id")
            .textValue();
  }

  /** Points this test at the class's shared server and what was set up in it; it starts none. */
  void useShared() throws Exception {
    DashboardTilesIntegrationTest shared = SHARED.get();
    http = shared.http;
    dashboards = shared.dashboards;
    source = shared.source;
  }

  @AfterEach
  void stop() throws Exception {
    if (server != null) {
      server.close();
    }
  }

  HttpResponse<String> send(String method, String path, String body) throws Exception {
    return http.send(method, path, body, "Authorization", ADMIN);
  }

  JsonNode ok(HttpResponse<String> r) throws Exception {
    assertEquals(200, r.statusCode(), r.body());
    return MAPPER.readTree(r.body()).get("result");
  }

  String error(HttpResponse<String> r) throws Exception {
    assertEquals(400, r.statusCode(), r.body());
    return MAPPER.readTree(r.body()).get("error").textValue();
  }

  String tile(String config) {
    return "{\"name\":\"t\",\"x\":0,\"y\":0,\"w\":6,\"h\":3,\"config\":"
        + config.replace("SRC", source)
        + "}";
  }

  String dashboard(String... tiles) {
    return "{\"name\":\"All types\",\"tiles\":[" + String.join(",", tiles) + "]}";
  }

  static final String[] EVERY_TYPE = {
    "{\"displayType\":\"line\",\"sourceId\":\"SRC\",\"select\":[{\"aggFn\":\"count\",\"where\":\"level:error\",\"whereLanguage\":\"lucene\",\"alias\":\"errors\"}],\"groupBy\":\"ServiceName\",\"fillNulls\":true,\"compareToPreviousPeriod\":false,\"numberFormat\":{\"output\":\"number\",\"mantissa\":2}}",
    "{\"displayType\":\"stacked_bar\",\"sourceId\":\"SRC\",\"select\":[{\"aggFn\":\"count\"},{\"aggFn\":\"count\",\"where\":\"level:error\"}],\"asRatio\":true}",
    "{\"displayType\":\"table\",\"sourceId\":\"SRC\",\"select\":[{\"aggFn\":\"quantile\",\"valueExpression\":\"Duration\",\"level\":0.95}],\"groupBy\":\"ServiceName\",\"orderBy\":\"ServiceName\",\"onClick\":{\"type\":\"search\",\"target\":{\"mode\":\"id\",\"id\":\"SRC\"},\"filters\":[{\"kind\":\"expressionTemplate\",\"expression\":\"ServiceName\",\"template\":\"{{ServiceName}}\"}]}}",
    "{\"displayType\":\"number\",\"sourceId\":\"SRC\",\"select\":[{\"aggFn\":\"avg\",\"valueExpression\":\"Duration\"}],\"color\":\"chart-red\",\"colorRules\":[{\"operator\":\"gt\",\"value\":100,\"color\":\"chart-error\"},{\"operator\":\"between\",\"value\":[1,2],\"color\":\"chart-green\"},{\"operator\":\"eq\",\"value\":\"n/a\",\"color\":\"chart-gray\"}],\"backgroundChart\":{\"type\":\"area\"}}",
    "{\"displayType\":\"pie\",\"sourceId\":\"SRC\",\"select\":[{\"aggFn\":\"count\"}],\"groupBy\":\"ServiceName\",\"limit\":5}",
    "{\"displayType\":\"bar\",\"sourceId\":\"SRC\",\"select\":[{\"aggFn\":\"sum\",\"valueExpression\":\"Bytes\",\"numberFormat\":{\"output\":\"byte\",\"numericUnit\":\"bytes_iec\"}}],\"groupBy\":\"Host\"}",
    "{\"displayType\":\"heatmap\",\"sourceId\":\"SRC\",\"select\":[{\"valueExpression\":\"Duration\",\"heatmapScaleType\":\"log\"}],\"where\":\"SELECT\",\"whereLanguage\":\"lucene\"}",
    "{\"displayType\":\"search\",\"sourceId\":\"SRC\",\"select\":\"Timestamp, Body\",\"where\":\"level = 'error'\",\"whereLanguage\":\"sql\"}",
    "{\"displayType\":\"event_patterns\",\"sourceId\":\"SRC\"}",
    "{\"displayType\":\"markdown\",\"markdown\":\"# Runbook\"}",
  };

  @Test
  void everyDisplayTypeRoundTrips() throws Exception {
    start();
    String[] tiles = new String[EVERY_TYPE.length];
    for (int i = 0; i < tiles.length; i++) {
      tiles[i] = tile(EVERY_TYPE[i]);
    }
    JsonNode d = ok(send("POST", dashboards, dashboard(tiles)));
    for (int i = 0; i < tiles.length; i++) {
      JsonNode sent = MAPPER.readTree(tiles[i]);
      ObjectNode got = (ObjectNode) d.get("tiles").get(i).deepCopy();
      assertTrue(got.remove("id").textValue().matches("[0-9a-f]{24}"));
      assertEquals(sent, got, "tile " + i);
    }
    assertEquals(d, ok(send("GET", dashboards + "/" + d.get("id").textValue(), null)));
    assertEquals("[]", d.get("filters").toString());
    assertEquals("[]", d.get("containers").toString());
  }

  @ParameterizedTest(name = "[{index}] {1}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      value = {
        "{\"displayType\":\"markdown\",\"markdown\":\"x\",\"sourceId\":\"SRC\"} | tiles[0].config.sourceId: unknown field",
        "{\"displayType\":\"heatmap\",\"sourceId\":\"SRC\",\"select\":[{\"aggFn\":\"count\"}]} | tiles[0].config.select[0].aggFn: unknown field; tiles[0].config.select[0].valueExpression: is required",
        "{\"displayType\":\"number\",\"sourceId\":\"SRC\",\"select\":[{\"aggFn\":\"count\"},{\"aggFn\":\"count\"}]} | tiles[0].config.select: a number tile has exactly 1 item, got 2",
        "{\"displayType\":\"line\",\"sourceId\":\"SRC\",\"select\":[{\"aggFn\":\"count\"}],\"asRatio\":true} | tiles[0].config.select: asRatio needs exactly 2 items, got 1",
        "{\"displayType\":\"search\",\"sourceId\":\"SRC\",\"select\":\"Body\"} | tiles[0].config.whereLanguage: is required",
        "{\"displayType\":\"search\",\"sourceId\":\"SRC\",\"select\":[{\"aggFn\":\"count\"}],\"whereLanguage\":\"sql\"} | tiles[0].config.select: must be a string",
        "{\"displayType\":\"line\",\"sourceId\":\"SRC\",\"select\":[{\"aggFn\":\"count\",\"valueExpression\":\"x\"}]} | tiles[0].config.select[0].valueExpression: must be left out for count",
        "{\"displayType\":\"line\",\"sourceId\":\"SRC\",\"select\":[{\"aggFn\":\"sum\"}]} | tiles[0].config.select[0].valueExpression: is required for sum",
        "{\"displayType\":\"line\",\"sourceId\":\"SRC\",\"select\":[{\"aggFn\":\"quantile\",\"valueExpression\":\"d\"}]} | tiles[0].config.select[0].level: is required for quantile",
        "{\"displayType\":\"line\",\"sourceId\":\"SRC\",\"select\":[{\"aggFn\":\"max\",\"valueExpression\":\"d\",\"level\":0.5}]} | tiles[0].config.select[0].level: only for quantile",
        "{\"displayType\":\"line\",\"configType\":\"sql\",\"connectionId\":\"default\",\"sqlTemplate\":\"SELECT 1\"} | tiles[0].config.configType: raw SQL tiles are not supported: Chartwell runs no SQL; describe the tile with sourceId and select",
        "{\"displayType\":\"stacked_bar\",\"sourceId\":\"SRC\",\"select\":[{\"aggFn\":\"count\"}],\"fitYAxisToData\":true} | tiles[0].config.fitYAxisToData: unknown field",
        "{\"displayType\":\"number\",\"sourceId\":\"SRC\",\"select\":[{\"aggFn\":\"count\"}],\"colorRules\":[{\"operator\":\"between\",\"value\":5,\"color\":\"chart-red\"}]} | tiles[0].config.colorRules[0].value: must be [min, max], two numbers",
        "{\"displayType\":\"table\",\"sourceId\":\"SRC\",\"select\":[{\"aggFn\":\"count\"}],\"onClick\":{\"type\":\"external\"}} | tiles[0].config.onClick.urlTemplate: is required",
        "{\"displayType\":\"pie\",\"sourceId\":\"SRC\",\"select\":[{\"aggFn\":\"count\"}],\"limit\":0} | tiles[0].config.limit: must be an integer of at least 1",
        "{\"displayType\":\"line\",\"sourceId\":\"SRC\",\"select\":[{\"aggFn\":\"count\",\"numberFormat\":{\"numericUnit\":\"furlongs\"}}]} | tiles[0].config.select[0].numberFormat.numericUnit: must be one of bytes_iec, bytes_si, bits_iec, bits_si, kibibytes, kilobytes, mebibytes, megabytes, gibibytes, gigabytes, tebibytes, terabytes, pebibytes, petabytes, packets_sec, bytes_sec_iec, bytes_sec_si, bits_sec_iec, bits_sec_si, kibibytes_sec, kibibits_sec, kilobytes_sec, kilobits_sec, mebibytes_sec, mebibits_sec, megabytes_sec, megabits_sec, gibibytes_sec, gibibits_sec, gigabytes_sec, gigabits_sec, tebibytes_sec, tebibits_sec, terabytes_sec, terabits...",
        "{\"displayType\":\"event_patterns\",\"sourceId\":\"SRC\",\"where\":\"a AND\"} | tiles[0].config.where: line 1, column 6: unexpected end of input",
      })
  void eachBranchHasItsOwnRules(String config, String message) throws Exception {
    useShared();
    assertEquals(
        "BAD_REQUEST: " + message, error(send("POST", dashboards, dashboard(tile(config)))));
  }

  @Test
  void deprecatedSeriesAreRefusedButTheEmptyDefaultsAreFine() throws Exception {
    start();
    String empty =
        tile(EVERY_TYPE[9]).replace("\"config\"", "\"series\":[],\"asRatio\":false,\"config\"");
    JsonNode d = ok(send("POST", dashboards, dashboard(empty)));
    assertEquals(
        false, d.get("tiles").get(0).has("series") || d.get("tiles").get(0).has("asRatio"));
    assertEquals(
        "BAD_REQUEST: tiles[0].series: is no longer accepted; describe the tile with config",
        error(
            send(
                "POST",
                dashboards,
                dashboard(
                    "{\"name\":\"t\",\"x\":0,\"y\":0,\"w\":6,\"h\":3,\"series\":[{\"type\":\"markdown\",\"content\":\"x\"}]}"))));
  }

  @Test
  void filtersContainersAndTheSavedQuery() throws Exception {
    start();
    String body =
        "{\"name\":\"Ops\",\"tiles\":["
            + tile(EVERY_TYPE[9])
                .replace("\"config\"", "\"containerId\":\"c1\",\"tabId\":\"errors\",\"config\"")
            + "],\"containers\":[{\"id\":\"c1\",\"title\":\"Health\",\"collapsed\":false,\"tabs\":[{\"id\":\"errors\",\"title\":\"Errors\"}]}],"
            + "\"filters\":[{\"type\":\"QUERY_EXPRESSION\",\"name\":\"Service\",\"expression\":\"ServiceName\",\"sourceId\":\""
            + source
            + "\"}],\"savedQuery\":\"ServiceName:api\",\"savedQueryLanguage\":\"lucene\","
            + "\"savedFilterValues\":[{\"type\":\"sql\",\"condition\":\"ServiceName IN ('api')\"}]}";
    JsonNode d = ok(send("POST", dashboards, body));
    String filterId = d.get("filters").get(0).get("id").textValue();
    assertTrue(filterId.matches("[0-9a-f]{24}"), "filter keys get ids");
    JsonNode again =
        ok(send("PUT", dashboards + "/" + d.get("id").textValue(), MAPPER.writeValueAsString(d)));
    assertEquals(filterId, again.get("filters").get(0).get("id").textValue(), "kept on replace");
    assertEquals(
        "BAD_REQUEST: tiles[0].tabId: container c1 has no tab warnings; filters[0].sourceId: source"
            + " 0123456789abcdef01234567 does not exist in this service; savedQuery: line 1, column"
            + " 6: unexpected end of input; savedFilterValues[0].condition: line 1, column 1:"
            + " 'ServiceName' alone is not a condition; compare it with a value",
        error(
            send(
                "POST",
                dashboards,
                body.replace("\"tabId\":\"errors\"", "\"tabId\":\"warnings\"")
                    .replace(
                        "\"sourceId\":\"" + source + "\"}",
                        "\"sourceId\":\"0123456789abcdef01234567\"}")
                    .replace("ServiceName:api", "a AND")
                    .replace("ServiceName IN ('api')", "ServiceName"))));
  }

  @Test
  void validateSaysWhatCreateWouldAndStoresNothing() throws Exception {
    start();
    String valid = dashboard(tile(EVERY_TYPE[0]), tile(EVERY_TYPE[9]));
    JsonNode ok = ok(send("POST", dashboards + "/validate", valid));
    assertEquals(true, ok.get("valid").booleanValue());
    assertEquals("[]", ok.get("errors").toString());
    assertEquals("All types", ok.get("normalized").get("name").textValue());
    assertEquals("[]", ok.get("normalized").get("tags").toString(), "defaults applied");
    assertEquals(false, ok.get("normalized").get("tiles").get(0).has("id"), "no ids given");

    String invalid =
        dashboard(
            tile(EVERY_TYPE[0]).replace("\"count\"", "\"median\""),
            tile("{\"displayType\":\"gauge\"}"));
    JsonNode bad = ok(send("POST", dashboards + "/validate", invalid));
    assertEquals(false, bad.get("valid").booleanValue());
    assertEquals(
        "[{\"path\":\"tiles.0.config.select.0.aggFn\",\"message\":\"must be one of avg, count,"
            + " count_distinct, last_value, max, min, quantile, sum, any, none\"},"
            + "{\"path\":\"tiles.1.config.displayType\",\"message\":\"must be one of line,"
            + " stacked_bar, table, number, pie, bar, heatmap, search, event_patterns, markdown\"}]",
        bad.get("errors").toString());
    assertTrue(bad.get("normalized").isNull());
    String createSays = error(send("POST", dashboards, invalid));
    assertTrue(createSays.contains("tiles[0].config.select[0].aggFn: must be one of"), createSays);
    assertEquals("[]", ok(send("GET", dashboards, null)).toString(), "nothing stored");
    StringBuilder many = new StringBuilder();
    for (int i = 0; i < 30; i++) {
      many.append(i == 0 ? "" : ",").append(tile("{\"displayType\":\"gauge\"}"));
    }
    JsonNode capped = ok(send("POST", dashboards + "/validate", dashboard(many.toString())));
    assertEquals(21, capped.get("errors").size(), "as many as a 400 names, then a count");
    assertEquals(
        "{\"path\":\"\",\"message\":\"and 10 more\"}", capped.get("errors").get(20).toString());
    assertEquals(
        "{\"path\":\"name\",\"message\":\"is required\"}",
        ok(send("POST", dashboards + "/validate", "{\"tiles\":[]}"))
            .get("errors")
            .get(0)
            .toString());
  }
}
