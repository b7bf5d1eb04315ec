package dev.chartwell.engine.segment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Segment files written by earlier format versions are still read exactly. The fixture {@code
 * segment-format/v1-segment-7.seg} was written by the engine of commit 65d06ca (format version 1)
 * from 1,000 seeded rows of every column type (low-cardinality and unique strings, hex ids, token
 * bodies, longs with a value index, doubles, booleans, absent values); {@code
 * v1-segment-7.dump.txt} is {@link SegmentDump} of that segment as that engine built it in memory.
 * The fixture is never regenerated: it stands for data directories written before version 2.
 */
class SegmentFormatCompatibilityTest {
  @TempDir Path dir;

  @Test
  void aVersion1FileReadsBackAsItsEngineBuiltIt() throws IOException {
    Path file = dir.resolve("v1.seg");
    try (InputStream in = resource("v1-segment-7.seg")) {
      Files.copy(in, file);
    }
    String expected;
    try (InputStream in = resource("v1-segment-7.dump.txt")) {
      expected = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    Segment segment = SegmentFile.open(file, 7);
    try {
      assertNull(segment.verify());
      assertEquals(expected, SegmentDump.of(segment).toString());
    } finally {
      segment.release();
    }
  }

  private static InputStream resource(String name) {
    return SegmentFormatCompatibilityTest.class.getResourceAsStream("/segment-format/" + name);
  }
}
