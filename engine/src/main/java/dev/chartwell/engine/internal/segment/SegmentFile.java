package dev.chartwell.engine.internal.segment;

import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;
import java.util.zip.CRC32C;
import org.roaringbitmap.buffer.ImmutableRoaringBitmap;

/**
 * A sealed segment as an immutable file, written once and memory-mapped for queries: the heap holds
 * only the {@link Segment} and its columns' small descriptors, the data stays in the page cache.
 *
 * <h2>Format (version 3; versions 1 and 2 are still read)</h2>
 *
 * Little-endian. Like Lucene's codec files: a header naming the format, version and segment, the
 * data, and a footer with checksums.
 *
 * <pre>
 * header, 32 bytes:
 *    0  8 bytes  magic "CWSEGMNT"
 *    8  int32    format version (3)
 *   12  int32    flags (0)
 *   16  int64    segment id
 *   24  int32    rows
 *   28  int32    CRC32C of bytes 0-27
 * blocks: the column data, each block starting at a multiple of 8 bytes (zero padding between)
 * table of contents (TOC): what the blocks are, see below
 * footer, 32 bytes:
 *    0  int64    offset of the TOC
 *    8  int32    length of the TOC
 *   12  int32    CRC32C of the TOC
 *   16  int32    CRC32C of every byte before the footer (header, blocks, TOC)
 *   20  int32    CRC32C of footer bytes 0-19
 *   24  8 bytes  magic "CWSEGEND"
 * </pre>
 *
 * The TOC is a sequence of fields: {@code long} min and max timestamp; the timestamps ({@link
 * Timestamps}: packed first values of each block of 128 rows, packed bit positions and widths of
 * the blocks, a block of 64-bit words; versions 1 and 2: packed longs); the implicit column's name;
 * the column count, and per column its name, a type byte (1 long, 2 double, 3 bool, 4 string) and
 * its parts; a byte saying whether a token index follows, and the index. A string is an int32 UTF-8
 * length (-1 for none) and the bytes; a block reference is int32 offset and int32 length (a bitmap
 * with length 0 stands for "every row"); packed longs are int64 minimum, a byte of bits per value,
 * int32 count and a block of 64-bit words. A dictionary is a layout byte ({@link
 * StringDictionary.Layout}: plain, fixed, hex, front-coded), int32 count, int32 width, packed
 * offsets (plain: of each entry; front-coded: of each block) and a block of entries; a bitmap list
 * is packed entries ({@link BitmapList}) and a block of data. Version 1 stored both as a block of
 * int32 offsets (count + 1) and a block of data; version 2 had no front-coded layout.
 * docs/storage.md describes every version byte by byte.
 *
 * <ul>
 *   <li>long: presence bitmap, int32 present count, int64 min, int64 max, packed values, a byte
 *       saying whether a value index follows: a block of int64 values and a bitmap list
 *   <li>double: presence bitmap, int32 present count, float64 min, float64 max, a block of float64
 *       values
 *   <li>bool: int32 rows, the bitmaps of true and of false rows
 *   <li>string: presence bitmap, int32 present count, dictionary, packed ordinals (id + 1, 0 when
 *       absent), bitmap list of each value's rows
 * </ul>
 *
 * <h2>Verification</h2>
 *
 * {@link #open} checks what it reads: the header (magic, version, segment id, its CRC), the footer
 * (magic, its CRC), the TOC's CRC and every block reference against the file's bounds. That costs a
 * few reads however large the file is. The checksum of the whole content is checked by {@link
 * Segment#verify} before the segment's first use in a query (and in the background after a
 * restart), so that a restart does not read every byte before answering.
 */
public final class SegmentFile {
  static final byte[] MAGIC = "CWSEGMNT".getBytes(StandardCharsets.US_ASCII);
  static final byte[] END = "CWSEGEND".getBytes(StandardCharsets.US_ASCII);

  /** The format version this code writes. */
  public static final int VERSION = 4;

  /** The oldest format version this code reads. */
  static final int OLDEST_READABLE = 1;

  static final int HEADER_BYTES = 32;
  static final int FOOTER_BYTES = 32;

  /** The largest segment file: what one mapped buffer can address. */
  static final long MAX_FILE_BYTES = Integer.MAX_VALUE;

  static final byte LONG = 1;
  static final byte DOUBLE = 2;
  static final byte BOOL = 3;
  static final byte STRING = 4;

  /** Dictionary layouts by their byte in the TOC (version 2 on; front-coded from version 3). */
  static final StringDictionary.Layout[] LAYOUTS = StringDictionary.Layout.values();

  private SegmentFile() {}

  /**
   * Writes a segment to a file.
   *
   * @param segment the segment
   * @param out an empty file open for writing, at position 0 (the caller forces it)
   * @return the file's length
   * @throws IOException when writing fails
   */
  public static long write(Segment segment, FileChannel out) throws IOException {
    return SegmentFileWriter.write(segment, out);
  }

  /**
   * Maps a segment file and reads its table of contents; the returned segment reads its columns
   * from the mapping. Its owner holds one reference ({@link Segment#release} at the end).
   *
   * @param file the file
   * @param expectedId the segment id the file must hold
   * @return the segment
   * @throws SegmentFileException when the header, footer or table of contents does not verify
   * @throws IOException when the file cannot be read
   */
  public static Segment open(Path file, long expectedId) throws IOException {
    return open(file, expectedId, s -> {});
  }

  /**
   * As {@link #open(Path, long)}, telling someone when {@link Segment#verify} finds that the
   * content does not match its checksum (once).
   *
   * @param file the file
   * @param expectedId the segment id the file must hold
   * @param onCorrupt told (on the verifying thread) when the content checksum fails
   * @return the segment
   * @throws SegmentFileException when the header, footer or table of contents does not verify
   * @throws IOException when the file cannot be read
   */
  public static Segment open(Path file, long expectedId, Consumer<Segment> onCorrupt)
      throws IOException {
    MappedByteBuffer mapped;
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      long size = ch.size();
      if (size < HEADER_BYTES + FOOTER_BYTES) {
        throw new SegmentFileException(
            file, "it is " + size + " bytes, shorter than a header and footer");
      }
      if (size > MAX_FILE_BYTES) {
        throw new SegmentFileException(file, "it is " + size + " bytes, larger than 2 GiB");
      }
      mapped = ch.map(FileChannel.MapMode.READ_ONLY, 0, size);
    }
    try {
      return read(file, mapped, expectedId, onCorrupt);
    } catch (SegmentFileException e) {
      Unmapper.unmap(mapped);
      throw e;
    } catch (RuntimeException e) {
      Unmapper.unmap(mapped);
      throw new SegmentFileException(
          file, "its table of contents does not describe it (" + e + ")");
    }
  }

  private static Segment read(
      Path file, MappedByteBuffer mapped, long expectedId, Consumer<Segment> onCorrupt)
      throws SegmentFileException {
    ByteBuffer b = mapped.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    int size = b.capacity();
    byte[] magic = new byte[8];
    b.get(0, magic);
    if (!Arrays.equals(magic, MAGIC)) {
      throw new SegmentFileException(file, "its header does not start with the segment magic");
    }
    if (crc(b, 0, HEADER_BYTES - 4) != b.getInt(HEADER_BYTES - 4)) {
      throw new SegmentFileException(file, "its header checksum does not match");
    }
    int version = b.getInt(8);
    if (version < OLDEST_READABLE || version > VERSION) {
      throw new SegmentFileException(
          file,
          "format version " + version + ", this build reads " + OLDEST_READABLE + " to " + VERSION);
    }
    long id = b.getLong(16);
    if (id != expectedId) {
      throw new SegmentFileException(file, "it holds segment " + id + ", not " + expectedId);
    }
    int rows = b.getInt(24);
    int footer = size - FOOTER_BYTES;
    b.get(footer + 24, magic);
    if (!Arrays.equals(magic, END)) {
      throw new SegmentFileException(file, "its footer is missing (torn or truncated file)");
    }
    if (crc(b, footer, 20) != b.getInt(footer + 20)) {
      throw new SegmentFileException(file, "its footer checksum does not match");
    }
    long tocOffset = b.getLong(footer);
    int tocLength = b.getInt(footer + 8);
    if (tocOffset < HEADER_BYTES || tocLength < 0 || tocOffset + tocLength != footer) {
      throw new SegmentFileException(file, "its footer points outside the file");
    }
    if (crc(b, (int) tocOffset, tocLength) != b.getInt(footer + 12)) {
      throw new SegmentFileException(file, "its table of contents checksum does not match");
    }
    MappedFile mapping = new MappedFile(file, mapped, footer, b.getInt(footer + 16));
    Toc toc = new Toc(b, (int) tocOffset, tocLength, version);
    long minTs = toc.getLong();
    long maxTs = toc.getLong();
    Timestamps timestamps =
        version < 3
            ? Timestamps.flat(toc.packed())
            : version < 4
                ? Timestamps.of(
                    toc.packed(), toc.packed(), null, null, toc.block().asLongBuffer(), rows)
                : Timestamps.of(
                    toc.packed(),
                    toc.packed(),
                    toc.packed(),
                    toc.packed(),
                    toc.block().asLongBuffer(),
                    rows);
    if (timestamps.size() != rows) {
      throw new SegmentFileException(
          file, "it has " + timestamps.size() + " timestamps for " + rows + " rows");
    }
    String implicit = toc.getString();
    int n = toc.getInt();
    Map<String, Column> columns = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      String name = toc.getString();
      columns.put(name, toc.column(rows));
    }
    TokenIndex tokens =
        toc.getByte() == 0 ? null : new TokenIndex(toc.dictionary(), toc.bitmapList());
    if (!toc.done()) {
      throw new SegmentFileException(file, "its table of contents has bytes after the last part");
    }
    Segment segment =
        new Segment(id, rows, timestamps, columns, implicit, tokens, minTs, maxTs, mapping);
    mapping.onCorrupt(() -> onCorrupt.accept(segment));
    return segment;
  }

  static int crc(ByteBuffer b, int from, int length) {
    CRC32C crc = new CRC32C();
    crc.update(b.slice(from, length));
    return (int) crc.getValue();
  }

  /** Reads the table of contents; every block is checked against the data area. */
  private static final class Toc {
    private final ByteBuffer file;
    private final ByteBuffer toc;
    private final int dataEnd;
    private final int version;

    Toc(ByteBuffer file, int offset, int length, int version) {
      this.file = file;
      this.toc = file.slice(offset, length).order(ByteOrder.LITTLE_ENDIAN);
      this.dataEnd = offset;
      this.version = version;
    }

    boolean done() {
      return !toc.hasRemaining();
    }

    int getByte() {
      return toc.get();
    }

    int getInt() {
      return toc.getInt();
    }

    long getLong() {
      return toc.getLong();
    }

    double getDouble() {
      return toc.getDouble();
    }

    String getString() {
      int n = toc.getInt();
      if (n == -1) {
        return null;
      }
      if (n < 0 || n > toc.remaining()) {
        throw new BufferUnderflowException();
      }
      byte[] bytes = new byte[n];
      toc.get(bytes);
      return new String(bytes, StandardCharsets.UTF_8);
    }

    /** The next block reference, as a little-endian view of the file. */
    ByteBuffer block() {
      return block(0);
    }

    /**
     * The next block reference, its view extended by up to {@code pad} bytes of the padding that
     * follows it (every block and the TOC start 8-byte aligned).
     */
    private ByteBuffer block(int pad) {
      int offset = toc.getInt();
      int length = toc.getInt();
      if (length < 0 || offset < HEADER_BYTES || (offset & 7) != 0 || offset > dataEnd - length) {
        throw new IllegalArgumentException("block " + offset + "+" + length + " is out of bounds");
      }
      int padded = Math.min(dataEnd - offset, (length + pad) & ~pad);
      return file.slice(offset, padded).order(ByteOrder.LITTLE_ENDIAN);
    }

    /** Version 1: a block of int32 values, read as 32-bit packed longs. */
    PackedLongs int32s() {
      int length = toc.getInt(toc.position() + 4); // the reference's length, checked by block
      ByteBuffer b = block(7);
      return PackedLongs.of(0, 32, length >> 2, b.asLongBuffer());
    }

    ImmutableRoaringBitmap bitmap() {
      ByteBuffer b = block();
      return b.capacity() == 0 ? null : new ImmutableRoaringBitmap(b);
    }

    PackedLongs packed() {
      long min = toc.getLong();
      int bits = toc.get();
      int size = toc.getInt();
      return PackedLongs.of(min, bits, size, block().asLongBuffer());
    }

    StringDictionary dictionary() {
      if (version == 1) {
        PackedLongs offsets = int32s();
        return StringDictionary.of(
            StringDictionary.Layout.PLAIN, offsets.size() - 1, 0, offsets, block());
      }
      int layout = toc.get();
      if (layout < 0 || layout >= LAYOUTS.length) {
        throw new IllegalArgumentException("unknown dictionary layout " + layout);
      }
      int size = toc.getInt();
      int width = toc.getInt();
      StringDictionary.Layout l = LAYOUTS[layout];
      if (l == StringDictionary.Layout.FRONT_CODED_PAGES && version < 4) {
        throw new IllegalArgumentException(
            "dictionary layout " + layout + " in a version " + version);
      }
      if (l == StringDictionary.Layout.FRONT_CODED_PAGES) {
        PackedLongs blockStarts = packed();
        PackedLongs pageStarts = packed();
        ByteBuffer data = block();
        return StringDictionary.ofPages(size, blockStarts, pageStarts, data, dictionary());
      }
      boolean offsets =
          l == StringDictionary.Layout.PLAIN || l == StringDictionary.Layout.FRONT_CODED;
      return StringDictionary.of(l, size, width, offsets ? packed() : null, block());
    }

    BitmapList bitmapList() {
      if (version == 1) {
        return BitmapList.ofVersion1(int32s(), block());
      }
      return BitmapList.of(packed(), block());
    }

    Column column(int rows) {
      int type = toc.get();
      switch (type) {
        case LONG -> {
          ImmutableRoaringBitmap presence = bitmap();
          int present = toc.getInt();
          long min = toc.getLong();
          long max = toc.getLong();
          PackedLongs values = rowsOf(packed(), rows);
          LongColumn.ValueIndex index =
              toc.get() == 0
                  ? null
                  : new LongColumn.ValueIndex(block().asLongBuffer(), bitmapList());
          return new LongColumn(
              values, presence, present, min, max, index, version >= 4 && index != null);
        }
        case DOUBLE -> {
          ImmutableRoaringBitmap presence = bitmap();
          int present = toc.getInt();
          double min = toc.getDouble();
          double max = toc.getDouble();
          java.nio.DoubleBuffer values = block().asDoubleBuffer();
          if (values.capacity() != rows) {
            throw new IllegalArgumentException(
                values.capacity() + " doubles for " + rows + " rows");
          }
          return new DoubleColumn(values, presence, present, min, max);
        }
        case BOOL -> {
          int n = toc.getInt();
          if (n != rows) {
            throw new IllegalArgumentException("a bool column of " + n + " rows in " + rows);
          }
          return new BoolColumn(bitmap(), bitmap(), rows);
        }
        case STRING -> {
          ImmutableRoaringBitmap presence = bitmap();
          int present = toc.getInt();
          StringDictionary dictionary = dictionary();
          PackedLongs ordinals = rowsOf(packed(), rows);
          BitmapList postings = version < 4 || toc.get() != 0 ? bitmapList() : null;
          if (postings == null && StringColumn.keepsPostings(dictionary.size(), present)) {
            throw new IllegalArgumentException(
                "a string column of "
                    + dictionary.size()
                    + " values for "
                    + present
                    + " rows has no posting lists");
          }
          return new StringColumn(dictionary, ordinals, postings, presence, present);
        }
        default -> throw new IllegalArgumentException("unknown column type " + type);
      }
    }

    private static PackedLongs rowsOf(PackedLongs p, int rows) {
      if (p.size() != rows) {
        throw new IllegalArgumentException(p.size() + " values for " + rows + " rows");
      }
      return p;
    }
  }
}
