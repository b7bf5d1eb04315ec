package dev.chartwell.engine.internal.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chartwell.engine.FsyncPolicy;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The registry of locked directories: refusals, the recorded holder, and notes given once. */
class DirectoryLockTest {
  @TempDir Path tmp;

  @Test
  void theHolderIsRecordedAndASecondLockInThisProcessIsRefusedByTheRegistry() throws IOException {
    Path dir = tmp.resolve("d");
    try (DirectoryLock lock = DirectoryLock.acquire(dir, "x.lock", "d is taken")) {
      assertEquals(ProcessHandle.current().pid() + "\n", Files.readString(dir.resolve("x.lock")));
      IOException e =
          assertThrows(IOException.class, () -> DirectoryLock.acquire(dir, "x.lock", "d is taken"));
      assertTrue(
          e.getMessage().startsWith("d is taken (held in this process, pid "), e.getMessage());
      assertTrue(e.getMessage().contains(lock.file().toString()), e.getMessage());
      // another lock file in the same directory is another lock
      DirectoryLock.acquire(dir, "y.lock", "d is taken").close();
    }
    DirectoryLock.acquire(dir, "x.lock", "d is taken").close(); // released on close
  }

  @Test
  void theReadAheadNoteIsGivenOncePerDirectory() throws IOException {
    Path dir = tmp.resolve("data");
    Files.createDirectories(dir);
    int expected = ReadAhead.note(dir).isPresent() ? 1 : 0; // depends on this machine's disk
    for (int open = 0; open < 3; open++) {
      List<String> lines = new ArrayList<>();
      try (EngineFiles files = EngineFiles.open(dir, FsyncPolicy.REQUEST, lines::add)) {
        long notes = lines.stream().filter(l -> l.contains("read-ahead")).count();
        assertEquals(open == 0 ? expected : 0, notes, "open " + open + ": " + lines);
      }
    }
    // A later process says nothing either: the directory records that the note was given.
    assertEquals(0, ReadAhead.noteOnce(dir).stream().count());
    assertEquals(expected == 1, Files.exists(dir.resolve(ReadAhead.NOTED)));
  }
}
