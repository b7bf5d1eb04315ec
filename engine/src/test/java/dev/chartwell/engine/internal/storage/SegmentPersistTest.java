package dev.chartwell.engine.internal.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chartwell.engine.FsyncPolicy;
import dev.chartwell.engine.SourceSpec;
import dev.chartwell.engine.internal.segment.Segment;
import dev.chartwell.engine.internal.segment.SegmentBuilder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A segment file as the sealing thread writes it. */
class SegmentPersistTest {
  @TempDir Path dir;

  @Test
  void aWrittenFileIsVerifiedWhileItsBytesAreInThePageCache() throws Exception {
    List<Segment> queued = new ArrayList<>();
    StorageContext context =
        new StorageContext(
            FsyncPolicy.parse("never"),
            dir.resolve("quarantine"),
            dir.resolve("dropped"),
            line -> {},
            queued::add); // no background verifier: only the write itself may verify
    SourceFiles files = SourceFiles.create(dir.resolve("s"), SourceSpec.logs("s"), context);
    SegmentBuilder builder = new SegmentBuilder(4);
    for (int i = 0; i < 100; i++) {
      builder.append(1_700_000_000_000L + i, new Object[0]);
    }
    Segment mapped = files.persist(builder.build(1, null));
    assertTrue(mapped.isVerified(), "no query has to read the whole file first");
    assertEquals(List.of(mapped), queued, "still handed to the background verifier (a no-op)");
    assertEquals(100, mapped.rows());
    mapped.retire(null);
    files.close();
  }
}
