package dev.chartwell.engine.internal.segment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;

import dev.chartwell.engine.ColumnType;
import dev.chartwell.testing.Gens;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quicktheories.api.Pair;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/** Segment files: what is written is read back exactly, and no damaged byte is ever served. */
class SegmentFileTest {
  @TempDir Path dir;

  /** One row of the random segments: every column type, each value sometimes absent. */
  record Row(
      long ts,
      String level,
      Long status,
      Long big,
      Double duration,
      Boolean ok,
      String body,
      String trace) {}

  @Test
  void everyColumnTypeReadsBackExactlyFromTheMappedFile() {
    qt().withExamples(200).forAll(rows()).checkAssert(this::roundTrips);
  }

  /**
   * A column's large front-coded dictionary is written compressed a page at a time, and reads back
   * as the same entries, rows and lookups; the token index's stays as it is.
   */
  @Test
  void aLargeDictionaryIsWrittenInCompressedPages() throws IOException {
    Segment heap = FixtureSegment.build(2026, 6000, 12);
    assertEquals(
        StringDictionary.Layout.FRONT_CODED,
        ((StringColumn) heap.column("Body")).dictionary().layout());
    Path file = dir.resolve("pages.seg");
    write(heap, file);
    Segment mapped = SegmentFile.open(file, 12);
    try {
      assertNull(mapped.verify());
      StringDictionary body = ((StringColumn) mapped.column("Body")).dictionary();
      assertEquals(StringDictionary.Layout.FRONT_CODED_PAGES, body.layout());
      assertTrue(
          body.bytes() * 2 < ((StringColumn) heap.column("Body")).dictionary().bytes(),
          "compressed to less than half");
      assertEquals(SegmentDump.of(heap), SegmentDump.of(mapped));
    } finally {
      mapped.release();
    }
  }

  private void roundTrips(List<Row> rows) {
    Segment heap = build(rows, 9);
    Path file = dir.resolve("rt.seg");
    try {
      write(heap, file);
      Segment mapped = SegmentFile.open(file, 9);
      try {
        assertNull(mapped.verify());
        assertEquals(SegmentDump.of(heap), SegmentDump.of(mapped));
        assertEquals(Files.size(file), mapped.bytes());
        assertEquals(0, mapped.heapBytes());
      } finally {
        mapped.release();
      }
      Files.delete(file);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  /**
   * Opening reads the header, the TOC and the footer and nothing of the column data of columns that
   * every row has: a restart of hundreds of cold files must not pay random reads per column (it
   * did, checking the first and last offsets of every dictionary and bitmap list: 12.3 s instead of
   * 3.9 s to open 100M events with a cold page cache). With the whole data area zeroed, the file
   * still opens, and the checksum finds the damage before any query reads it. (Presence bitmaps of
   * sparse columns and boolean columns are still parsed at open: one read each.)
   */
  @Test
  void openingReadsNothingOfTheColumnData() throws IOException {
    SegmentBuilder builder = new SegmentBuilder(1);
    builder.addColumn("level", ColumnType.STRING);
    builder.addColumn("trace", ColumnType.STRING);
    builder.addColumn("status", ColumnType.LONG);
    builder.addColumn("duration", ColumnType.DOUBLE);
    builder.addColumn("Body", ColumnType.STRING);
    for (int i = 0; i < 100; i++) {
      builder.append(
          i,
          new Object[] {"l" + i % 3, String.format("%08x", i), 200L + i % 4, i / 3.0, "GET /" + i});
    }
    Path file = dir.resolve("zeroed.seg");
    write(builder.build(4, "Body"), file);
    ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
    int tocOffset = (int) b.getLong(b.capacity() - SegmentFile.FOOTER_BYTES);
    for (int i = SegmentFile.HEADER_BYTES; i < tocOffset; i++) {
      b.put(i, (byte) 0);
    }
    Files.write(file, b.array());
    Segment opened = SegmentFile.open(file, 4);
    try {
      assertEquals(100, opened.rows());
      assertNotNull(opened.verify(), "the checksum finds the zeroed data");
    } finally {
      opened.release();
    }
  }

  @Test
  void aSegmentWithNoRowsAndNoColumnsRoundTrips() throws IOException {
    Segment empty = new SegmentBuilder(1).build(3, null);
    Path file = dir.resolve("empty.seg");
    write(empty, file);
    Segment mapped = SegmentFile.open(file, 3);
    assertNull(mapped.verify());
    assertEquals(SegmentDump.of(empty), SegmentDump.of(mapped));
    mapped.release();
  }

  @Test
  void everyFlippedByteIsCaughtAtOpenOrByTheChecksum() throws IOException {
    Segment heap = build(sample(), 5);
    Path good = dir.resolve("good.seg");
    write(heap, good);
    byte[] bytes = Files.readAllBytes(good);
    Path bad = dir.resolve("bad.seg");
    for (int offset = 0; offset < bytes.length; offset++) {
      byte[] damaged = bytes.clone();
      damaged[offset] ^= (byte) (1 << (offset % 8));
      Files.write(bad, damaged);
      assertNotServed(bad, 5, "a flipped bit at offset " + offset + " of " + bytes.length);
    }
  }

  @Test
  void truncatedAndExtendedFilesAndWrongIdsAreRefusedAtOpen() throws IOException {
    Segment heap = build(sample(), 5);
    Path good = dir.resolve("good.seg");
    write(heap, good);
    byte[] bytes = Files.readAllBytes(good);
    Path bad = dir.resolve("bad.seg");
    for (int length = 0; length < bytes.length; length += Math.max(1, bytes.length / 97)) {
      Files.write(bad, java.util.Arrays.copyOf(bytes, length));
      assertThrows(SegmentFileException.class, () -> SegmentFile.open(bad, 5), "length " + length);
    }
    Files.write(bad, java.util.Arrays.copyOf(bytes, bytes.length + 8));
    assertThrows(SegmentFileException.class, () -> SegmentFile.open(bad, 5));
    SegmentFileException wrongId =
        assertThrows(SegmentFileException.class, () -> SegmentFile.open(good, 6));
    assertTrue(wrongId.getMessage().contains("holds segment 5, not 6"), wrongId.getMessage());
    assertEquals(good, wrongId.file());
  }

  @Test
  void theFormatStartsWithItsHeaderAndEndsWithItsFooter() throws IOException {
    Segment heap = build(sample(), 77);
    Path file = dir.resolve("f.seg");
    write(heap, file);
    ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
    assertEquals(
        "CWSEGMNT", new String(b.array(), 0, 8, java.nio.charset.StandardCharsets.US_ASCII));
    assertEquals(SegmentFile.VERSION, b.getInt(8));
    assertEquals(77, b.getLong(16));
    assertEquals(heap.rows(), b.getInt(24));
    int end = b.capacity();
    assertEquals(
        "CWSEGEND", new String(b.array(), end - 8, 8, java.nio.charset.StandardCharsets.US_ASCII));
    assertEquals(0, b.getLong(end - 32) % 8, "the table of contents is aligned");
  }

  @Test
  void aReleasedFileRunsItsRetireActionOnlyAfterTheLastReader() throws IOException {
    Path file = dir.resolve("r.seg");
    write(build(sample(), 1), file);
    Segment mapped = SegmentFile.open(file, 1);
    assertTrue(mapped.acquire()); // a query
    boolean[] deleted = new boolean[1];
    mapped.retire(() -> deleted[0] = true);
    assertEquals(false, deleted[0], "a reader still holds it");
    assertNull(mapped.verify());
    mapped.release();
    assertTrue(deleted[0]);
    assertEquals(false, mapped.acquire(), "released for good");
  }

  private static void assertNotServed(Path file, long id, String what) {
    Segment s;
    try {
      s = SegmentFile.open(file, id);
    } catch (SegmentFileException e) {
      return;
    } catch (IOException e) {
      throw new AssertionError(what + ": " + e, e);
    }
    try {
      assertNotNull(s.verify(), what + " was not detected");
    } finally {
      s.release();
    }
  }

  static void write(Segment s, Path file) throws IOException {
    try (FileChannel ch =
        FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      long length = SegmentFile.write(s, ch);
      assertEquals(ch.size(), length);
    }
  }

  static Segment build(List<Row> rows, long id) {
    SegmentBuilder b = new SegmentBuilder(1);
    b.addColumn("level", ColumnType.STRING);
    b.addColumn("status", ColumnType.LONG);
    b.addColumn("big", ColumnType.LONG);
    b.addColumn("duration", ColumnType.DOUBLE);
    b.addColumn("ok", ColumnType.BOOL);
    b.addColumn("Body", ColumnType.STRING);
    b.addColumn("trace", ColumnType.STRING);
    for (Row r : rows) {
      b.append(
          r.ts(),
          new Object[] {r.level(), r.status(), r.big(), r.duration(), r.ok(), r.body(), r.trace()});
    }
    return b.build(id, "Body");
  }

  private static List<Row> sample() {
    return List.of(
        new Row(30, "error", 500L, 1L << 40, 1.5, false, "Timeout after 30s", "0af7651916cd43dd"),
        new Row(10, "info", 200L, -7L, 0.25, true, "GET /users ok", "b7ad6b7169203331"),
        new Row(20, null, 200L, null, null, null, "GET /users/42 ok é", null),
        new Row(10, "info", null, 3L, -3.0, true, null, "0af7651916cd43dd"));
  }

  static Gen<List<Row>> rows() {
    Gen<String> levels = maybe(Gens.of("debug", "info", "warn", "error", "é", "\uD83D\uDE00"));
    Gen<Long> status = maybe(Gens.of(200L, 404L, 500L, 503L));
    Gen<Long> big = maybe(Gens.longs(Long.MIN_VALUE, Long.MAX_VALUE));
    Gen<Double> duration =
        maybe(
            Gens.oneOf(
                Gens.of(0.0, -0.0, 1e300, -2.5),
                org.quicktheories.generators.SourceDSL.doubles().between(-1e6, 1e6)));
    Gen<Boolean> ok = maybe(Gens.of(true, false));
    Gen<String> body =
        maybe(
            Gens.oneOf(
                Gens.of("GET /a 200", "Timeout: x", "é-42 ok", ""),
                Gens.strings("aB1 -/é.", 0, 12)));
    // Lowercase hex of one length is stored as bytes; an uppercase or shorter id keeps the
    // column in a UTF-8 layout.
    Gen<String> trace =
        maybe(
            Generate.frequency(
                Pair.of(20, Gens.strings("0123456789abcdef", 8, 8)),
                Pair.of(1, Gens.of("ABCDEF01", "abc", "0123456789abcdef0"))));
    Gen<Row> row =
        Gens.longs(0, 1000)
            .zip(levels, status, big, (ts, l, s, g) -> new Object[] {ts, l, s, g})
            .zip(duration, ok, body, (a, d, o, t) -> new Object[] {a, d, o, t})
            .zip(
                trace,
                (x, tr) -> {
                  Object[] a = (Object[]) x[0];
                  return new Row(
                      (Long) a[0],
                      (String) a[1],
                      (Long) a[2],
                      (Long) a[3],
                      (Double) x[1],
                      (Boolean) x[2],
                      (String) x[3],
                      tr);
                });
    return Gens.listOf(row, 0, 80);
  }

  private static <T> Gen<T> maybe(Gen<T> g) {
    return Generate.frequency(Pair.of(4, g), Pair.of(1, Generate.constant((T) null)));
  }
}
