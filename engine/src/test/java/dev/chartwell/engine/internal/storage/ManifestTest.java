package dev.chartwell.engine.internal.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chartwell.engine.ColumnSpec;
import dev.chartwell.engine.ColumnType;
import dev.chartwell.engine.SourceKind;
import dev.chartwell.engine.SourceSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Manifests round-trip, and one that does not verify falls back to the one before it. */
class ManifestTest {
  @TempDir Path dir;

  static Manifest first() {
    SourceSpec spec =
        new SourceSpec(
            "src1",
            "logs é😀",
            SourceKind.TRACE,
            "Timestamp",
            "Body",
            null,
            List.of(new ColumnSpec("status", ColumnType.LONG)));
    return new Manifest(
        1,
        spec,
        0,
        0,
        List.of(
            new ColumnSpec("Body", ColumnType.STRING), new ColumnSpec("status", ColumnType.LONG)),
        List.of());
  }

  static Manifest second(Manifest m) {
    return m.next(
        41,
        2,
        List.of(
            new ColumnSpec("Body", ColumnType.STRING),
            new ColumnSpec("status", ColumnType.LONG),
            new ColumnSpec("ok", ColumnType.BOOL)),
        List.of(
            new Manifest.SegmentEntry(0, "seg-0.seg", 1234, 20, -5, 17),
            new Manifest.SegmentEntry(1, "seg-1.seg", 99, 21, 17, Long.MAX_VALUE)));
  }

  @Test
  void publishedManifestsReadBackAndOnlyTheLastTwoAreKept() throws Exception {
    Manifest m1 = first();
    m1.publish(dir);
    assertEquals(Optional.of(m1), Manifest.readLatest(dir, p -> {}));
    Manifest m2 = second(m1);
    m2.publish(dir);
    assertEquals(Optional.of(m2), Manifest.readLatest(dir, p -> {}));
    Manifest m3 = m2.next(50, 3, m2.columns(), m2.segments().subList(1, 2));
    m3.publish(dir);
    assertEquals(Optional.of(m3), Manifest.readLatest(dir, p -> {}));
    try (var files = Files.list(dir)) {
      assertEquals(
          List.of("manifest-0000000000000002", "manifest-0000000000000003"),
          files.map(f -> f.getFileName().toString()).sorted().toList());
    }
  }

  @Test
  void everyFlippedByteAndEveryTruncationFallsBackToThePreviousManifest() throws Exception {
    Manifest m1 = first();
    m1.publish(dir);
    Manifest m2 = second(m1);
    m2.publish(dir);
    Path latest = dir.resolve("manifest-0000000000000002");
    byte[] good = Files.readAllBytes(latest);
    for (int i = 0; i < good.length; i++) {
      byte[] bad = good.clone();
      bad[i] ^= 0x10;
      Files.write(latest, bad);
      List<String> problems = new ArrayList<>();
      assertEquals(Optional.of(m1), Manifest.readLatest(dir, problems::add), "byte " + i);
      assertEquals(1, problems.size());
      assertTrue(problems.get(0).contains("manifest-0000000000000002 does not verify"));
      assertTrue(problems.get(0).endsWith("using the one before it"), problems.get(0));
    }
    for (int length = 0; length < good.length; length++) {
      Files.write(latest, java.util.Arrays.copyOf(good, length));
      assertEquals(Optional.of(m1), Manifest.readLatest(dir, p -> {}), "length " + length);
    }
    Files.write(latest, good);
    assertEquals(Optional.of(m2), Manifest.readLatest(dir, p -> {}));
  }

  @Test
  void aDirectoryWithoutAGoodManifestHasNone() throws Exception {
    assertEquals(Optional.empty(), Manifest.readLatest(dir, p -> {}));
    Files.writeString(dir.resolve("manifest-0000000000000001"), "garbage");
    Files.writeString(dir.resolve("manifest-0000000000000002.tmp"), "interrupted");
    List<String> problems = new ArrayList<>();
    assertEquals(Optional.empty(), Manifest.readLatest(dir, problems::add));
    assertEquals(1, problems.size());
    Manifest.removeTemporaries(dir);
    assertTrue(Files.notExists(dir.resolve("manifest-0000000000000002.tmp")));
  }
}
