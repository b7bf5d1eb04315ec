package dev.chartwell.server.clickstack;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.chartwell.server.store.Secrets;
import java.nio.file.Path;
import java.time.Clock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResourcesTest {
  @TempDir Path dir;

  @Test
  void droppingAServiceRemovesAllItsResourcesAndNoOthers() throws Exception {
    ObjectMapper m = new ObjectMapper();
    try (Resources r = Resources.open(dir, m, Clock.systemUTC(), Secrets.of(new byte[32]))) {
      String webhook = "{\"name\":\"w\",\"service\":\"generic\",\"url\":\"http://h/x\"}";
      String dashboard =
          "{\"name\":\"d\",\"tiles\":[{\"name\":\"t\",\"x\":0,\"y\":0,\"w\":1,\"h\":1,\"config\":{"
              + "\"displayType\":\"number\",\"sourceId\":\"s\",\"select\":[{\"aggFn\":\"count\"}]}}]}";
      for (String service : new String[] {"x", "y"}) {
        String hook =
            r.put(Kind.WEBHOOK, service, null, m.readTree(webhook), s -> true).get("id").asText();
        var d = r.put(Kind.DASHBOARD, service, null, m.readTree(dashboard), s -> true);
        String alert =
            "{\"dashboardId\":\""
                + d.get("id").asText()
                + "\",\"tileId\":\""
                + d.get("tiles").get(0).get("id").asText()
                + "\",\"threshold\":1,\"interval\":\"1m\",\"thresholdType\":\"above\","
                + "\"channel\":{\"type\":\"webhook\",\"webhookId\":\""
                + hook
                + "\"}}";
        r.put(Kind.ALERT, service, null, m.readTree(alert), s -> true);
        r.put(
            Kind.SAVED_SEARCH,
            service,
            null,
            m.readTree("{\"name\":\"errors\",\"sourceId\":\"s\",\"where\":\"level:error\"}"),
            s -> true);
        r.put(
            Kind.ROLE,
            service,
            null,
            m.readTree(
                "{\"name\":\"bots\",\"permissions\":[{\"action\":\"read\",\"subject\":\"Dashboard\"}]}"),
            s -> true);
      }
      r.dropService("x");
      for (Kind kind : Kind.values()) {
        int predefined = kind == Kind.ROLE ? 2 : 0;
        assertEquals(predefined, r.list(kind, "x").size(), kind.name());
        assertEquals(predefined + 1, r.list(kind, "y").size(), kind.name());
      }
    }
  }
}
