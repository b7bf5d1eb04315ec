package dev.chartwell.server.alerts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Framed, checksummed records: read both ways, a torn or damaged tail cut off at open. */
class RecordFileTest {
  @TempDir Path dir;
  final List<String> reports = new ArrayList<>();

  static List<byte[]> records(String... texts) {
    List<byte[]> out = new ArrayList<>();
    for (String t : texts) {
      out.add(t.getBytes(StandardCharsets.UTF_8));
    }
    return out;
  }

  List<String> forwards(RecordFile f) throws Exception {
    List<String> out = new ArrayList<>();
    f.forEach(p -> out.add(new String(p, StandardCharsets.UTF_8)));
    return out;
  }

  List<String> backwards(RecordFile f) throws Exception {
    List<String> out = new ArrayList<>();
    f.backwards(
        p -> {
          out.add(new String(p, StandardCharsets.UTF_8));
          return true;
        });
    return out;
  }

  @Test
  void recordsReadBothWaysAndSurviveReopening() throws Exception {
    Path p = dir.resolve("a.log");
    try (RecordFile f = RecordFile.open(p, false, reports::add)) {
      f.append(records("one", "two"), true);
      f.append(records("", "four"), false);
      assertEquals(List.of("one", "two", "", "four"), forwards(f));
      assertEquals(List.of("four", "", "two", "one"), backwards(f));
    }
    try (RecordFile f = RecordFile.open(p, false, reports::add)) {
      assertEquals(List.of("one", "two", "", "four"), forwards(f));
    }
    assertEquals(List.of(), reports);
  }

  @Test
  void aTornTailIsCutOffAndKeptAside() throws Exception {
    Path p = dir.resolve("a.log");
    try (RecordFile f = RecordFile.open(p, false, reports::add)) {
      f.append(records("one", "two"), true);
    }
    long whole = Files.size(p);
    // A batch cut short by a crash: its frame header and part of its payload.
    Files.write(p, new byte[] {0, 0, 0, 9, 1, 2, 3, 4, 'a', 'b'}, StandardOpenOption.APPEND);
    try (RecordFile f = RecordFile.open(p, false, reports::add)) {
      assertEquals(whole, Files.size(p));
      assertEquals(List.of("two", "one"), backwards(f));
      f.append(records("three"), false);
      assertEquals(List.of("one", "two", "three"), forwards(f));
    }
    assertEquals(1, reports.size(), reports.toString());
    assertTrue(reports.get(0).contains("10 bytes after the last whole record were cut off"));
    try (var files = Files.list(dir)) {
      assertEquals(2, files.count(), "the damaged copy is kept");
    }
  }

  @Test
  void aFlippedBitEndsTheReadableRecordsThere() throws Exception {
    Path p = dir.resolve("a.log");
    try (RecordFile f = RecordFile.open(p, false, reports::add)) {
      f.append(records("one", "two", "three"), true);
    }
    byte[] bytes = Files.readAllBytes(p);
    bytes[12 + 3 + 8] ^= 1; // the first byte of "two"
    Files.write(p, bytes);
    try (RecordFile f = RecordFile.open(p, false, reports::add)) {
      assertEquals(List.of("one"), forwards(f), "reading stops at the damage");
      assertEquals(List.of("three"), backwards(f));
    }
    assertEquals(List.of(), reports, "only the last record is checked");
    try (RecordFile f = RecordFile.open(p, true, reports::add)) {
      assertEquals(List.of("one"), forwards(f));
      assertEquals(List.of("one"), backwards(f), "checked whole: cut after the last good record");
    }
    assertEquals(1, reports.size());
  }

  @Test
  void readersSkipATornTailOfAFileNotReopened() throws Exception {
    Path p = dir.resolve("a.log");
    try (RecordFile f = RecordFile.open(p, false, reports::add)) {
      f.append(records("one", "two"), true);
    }
    Files.write(p, new byte[] {0, 0, 0, 9, 1}, StandardOpenOption.APPEND);
    List<String> out = new ArrayList<>();
    try (var ch = java.nio.channels.FileChannel.open(p, StandardOpenOption.READ)) {
      RecordFile.backwards(
          ch,
          Files.size(p),
          b -> {
            out.add(new String(b, StandardCharsets.UTF_8));
            return true;
          });
    }
    assertEquals(List.of("two", "one"), out);
  }
}
