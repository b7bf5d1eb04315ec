package dev.chartwell.engine.internal.segment;

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
 * {@code v2-segment-9.seg} and its dump were written the same way by commit 13bc497 (format version
 * 2) from {@link FixtureSegment#build FixtureSegment.build(2026, 1000, 9)}, and {@code
 * v3-segment-11.seg} by commit 66e2934 (format version 3, with a front-coded dictionary) from
 * {@code FixtureSegment.build(2026, 1800, 11)}. The fixtures are never regenerated: they stand for
 * data directories written by those versions.
 */
class SegmentFormatCompatibilityTest {
  @TempDir Path dir;

  @Test
  void aVersion1FileReadsBackAsItsEngineBuiltIt() throws IOException {
    assertReadsBack("v1-segment-7", 7);
  }

  @Test
  void aVersion2FileReadsBackAsItsEngineBuiltIt() throws IOException {
    assertReadsBack("v2-segment-9", 9);
  }

  @Test
  void aVersion3FileReadsBackAsItsEngineBuiltIt() throws IOException {
    assertReadsBack("v3-segment-11", 11);
  }

  @Test
  void theVersion2FixtureIsWhatTheFixtureSegmentStillBuilds() throws IOException {
    String expected;
    try (InputStream in = resource("v2-segment-9.dump.txt")) {
      expected = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    assertEquals(expected, SegmentDump.of(FixtureSegment.build(2026, 1000, 9)).toString());
  }

  private void assertReadsBack(String name, long id) throws IOException {
    Path file = dir.resolve(name + ".seg");
    try (InputStream in = resource(name + ".seg")) {
      Files.copy(in, file);
    }
    String expected;
    try (InputStream in = resource(name + ".dump.txt")) {
      expected = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    Segment segment = SegmentFile.open(file, id);
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
