package dev.chartwell.engine.internal.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The readahead read from a device folder laid out as Linux's {@code /sys/class/block}. */
class ReadAheadTest {
  @TempDir Path sys;

  @Test
  void aDiskHasItsOwnAndAPartitionItsDisks() throws Exception {
    Path disk = Files.createDirectories(sys.resolve("vda/queue"));
    Files.writeString(disk.resolve("read_ahead_kb"), "8192\n");
    Path partition = Files.createDirectories(sys.resolve("vda/vda1"));
    assertEquals(OptionalLong.of(8192), ReadAhead.kilobytes(sys.resolve("vda")));
    assertEquals(OptionalLong.of(8192), ReadAhead.kilobytes(partition));
    assertEquals(OptionalLong.empty(), ReadAhead.kilobytes(sys.resolve("missing")));
    Files.writeString(disk.resolve("read_ahead_kb"), "lots");
    assertEquals(OptionalLong.empty(), ReadAhead.kilobytes(partition), "not a number: nothing");
  }

  @Test
  void theNoteSaysWhatTheSettingMeansNotACommand() {
    String m = ReadAhead.message(Path.of("/data"), "vda", 8192);
    assertTrue(m.contains("/data (vda) has a read-ahead of 8192 KB"), m);
    assertTrue(m.contains("the kernel reads 8192 KB of that file around it"), m);
    assertTrue(m.contains("Only queries over data that is not in memory take longer"), m);
    assertTrue(m.contains("optional"), m);
    assertTrue(m.contains("Said once per data directory."), m);
    assertTrue(m.contains("/sys/class/block/vda/queue/read_ahead_kb"), m);
    assertFalse(m.contains("echo") || m.contains("as root"), "not a command to run: " + m);
  }

  @Test
  void anyDirectoryIsAnsweredWithoutFailing() {
    // on this machine's disk the answer depends on its setting; it must never throw
    ReadAhead.note(sys);
    ReadAhead.note(sys.resolve("not/there"));
  }
}
