package dev.chartwell.server.shippers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.strings;

import dev.chartwell.server.http.ApiException;
import org.junit.jupiter.api.Test;

class IndexNamesTest {
  @Test
  void datedAndRolledOverIndicesShareOneTable() {
    assertEquals("logs_app", IndexNames.table("logs-app-2026.11.28"));
    assertEquals("logs_app", IndexNames.table("logs-app-2026.11.29"));
    assertEquals("logs_app", IndexNames.table("logs-app-2026-11"));
    assertEquals("logs_app", IndexNames.table("logs-app.20261128"));
    assertEquals("logs_app", IndexNames.table("Logs-App"));
    assertEquals("logs_app_default", IndexNames.table(".ds-logs-app-default-2026.11.28-000001"));
    assertEquals("filebeat_8_17_0", IndexNames.table("filebeat-8.17.0-2026.11.28-000001"));
    assertEquals("fluent_bit", IndexNames.table("fluent-bit"));
    assertEquals("logstash", IndexNames.table("logstash-2026.11.28"));
  }

  @Test
  void namesThatLeaveNothingAreRefused() {
    assertThrows(ApiException.class, () -> IndexNames.table(""));
    assertThrows(ApiException.class, () -> IndexNames.table("---"));
    assertThrows(ApiException.class, () -> IndexNames.table("x".repeat(256)));
  }

  @Test
  void tableNamesHaveOnlySafeCharactersAndMapToThemselves() {
    qt().forAll(strings().allPossible().ofLengthBetween(1, 40))
        .checkAssert(
            index -> {
              String table;
              try {
                table = IndexNames.table(index);
              } catch (ApiException refused) {
                return;
              }
              assertEquals(true, table.matches("[a-z0-9_]+"), table);
              assertEquals(table, IndexNames.table(table)); // a table's name is its own table
            });
  }
}
