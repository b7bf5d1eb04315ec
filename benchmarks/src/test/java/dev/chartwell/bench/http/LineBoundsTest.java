package dev.chartwell.bench.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The split of an NDJSON file into whole-line parts for concurrent ClickHouse {@code INSERT}s. */
class LineBoundsTest {
  @TempDir Path dir;

  @Test
  void everyPartHoldsWholeLinesAndThePartsCoverTheFile() throws Exception {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < 1000; i++) {
      text.append("{\"n\":")
          .append(i)
          .append(",\"pad\":\"")
          .append("x".repeat(i % 37))
          .append("\"}\n");
    }
    Path file = dir.resolve("a.ndjson");
    Files.writeString(file, text);
    byte[] bytes = Files.readAllBytes(file);
    for (int parts = 1; parts <= 7; parts++) {
      long[] b = ClickHouse.lineBounds(file, parts);
      assertEquals(parts + 1, b.length);
      assertEquals(0, b[0]);
      assertEquals(bytes.length, b[parts]);
      int lines = 0;
      for (int i = 0; i < parts; i++) {
        String part =
            new String(bytes, (int) b[i], (int) (b[i + 1] - b[i]), StandardCharsets.UTF_8);
        if (!part.isEmpty()) {
          assertEquals('\n', part.charAt(part.length() - 1), "part " + i + " of " + parts);
          assertEquals('{', part.charAt(0), "part " + i + " of " + parts);
        }
        lines += (int) part.chars().filter(c -> c == '\n').count();
      }
      assertEquals(1000, lines);
    }
  }

  @Test
  void moreInsertsThanLinesLeaveEmptyPartsAtTheEnd() throws Exception {
    Path file = dir.resolve("b.ndjson");
    Files.writeString(file, "{}\n{}\n");
    assertArrayEquals(new long[] {0, 3, 6, 6, 6}, ClickHouse.lineBounds(file, 4));
  }

  @Test
  void noInsertsIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> ClickHouse.lineBounds(dir, 0));
  }
}
