package dev.chartwell.bench.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClickHouseTest {
  @TempDir Path dir;

  @Test
  void aGivenPathMustBeAnExecutable() throws Exception {
    assertEquals(Optional.empty(), ClickHouse.find(dir.resolve("clickhouse-server").toString()));
    Path notExecutable = Files.writeString(dir.resolve("clickhouse-server"), "");
    assertEquals(Optional.empty(), ClickHouse.find(notExecutable.toString()));
  }

  @Test
  void theSingleBinaryIsStartedWithItsServerCommand() throws Exception {
    Path single = executable("clickhouse");
    Path server = executable("clickhouse-server");
    assertEquals(
        Optional.of(List.of(single.toString(), "server")), ClickHouse.find(single.toString()));
    assertEquals(Optional.of(List.of(server.toString())), ClickHouse.find(server.toString()));
  }

  @Test
  void theTableIsSortedByTimeWithLowCardinalityStrings() {
    String t = ClickHouse.CREATE_TABLE;
    assertTrue(t.endsWith("ENGINE = MergeTree ORDER BY Timestamp"), t);
    for (String c : List.of("ServiceName", "SeverityText", "host")) {
      assertTrue(t.contains(c + " LowCardinality(String)"), c);
    }
    assertTrue(t.contains("TraceId String") && t.contains("Body String"), t);
  }

  private Path executable(String name) throws Exception {
    Path p = Files.createDirectories(dir.resolve(name + "-dir")).resolve(name);
    Files.writeString(p, "#!/bin/sh\n");
    Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwx------"));
    return p;
  }
}
