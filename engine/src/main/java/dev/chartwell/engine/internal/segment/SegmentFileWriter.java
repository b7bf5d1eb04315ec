package dev.chartwell.engine.internal.segment;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.nio.LongBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.zip.CRC32C;
import org.roaringbitmap.buffer.ImmutableRoaringBitmap;

/**
 * Writes a {@link Segment} in the {@link SegmentFile} format: the header, every block of column
 * data (each 8-byte aligned), the table of contents and the footer, in one sequential pass with a
 * running CRC32C. The caller forces and renames the file.
 */
final class SegmentFileWriter {
  private static final int CHUNK = 1 << 16;

  private final FileChannel out;
  private final ByteBuffer chunk = ByteBuffer.allocateDirect(CHUNK).order(ByteOrder.LITTLE_ENDIAN);
  private final CRC32C crc = new CRC32C();
  private final Toc toc = new Toc();
  private long position;

  private SegmentFileWriter(FileChannel out) {
    this.out = out;
  }

  /**
   * @param segment the segment
   * @param out an empty file, open for writing at position 0
   * @return the file's length
   * @throws IOException when writing fails
   * @throws IllegalStateException when the segment would need a file of 2 GiB or more
   */
  static long write(Segment segment, FileChannel out) throws IOException {
    return new SegmentFileWriter(out).writeSegment(segment);
  }

  private long writeSegment(Segment s) throws IOException {
    ByteBuffer header =
        ByteBuffer.allocate(SegmentFile.HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
    header.put(SegmentFile.MAGIC).putInt(SegmentFile.VERSION).putInt(0).putLong(s.id());
    header.putInt(s.rows());
    CRC32C headerCrc = new CRC32C();
    headerCrc.update(header.array(), 0, SegmentFile.HEADER_BYTES - 4);
    header.putInt((int) headerCrc.getValue());
    put(header.flip());

    toc.putLong(s.minTimestamp()).putLong(s.maxTimestamp());
    Timestamps ts = s.timestamps().blockCoded();
    packed(ts.firsts());
    packed(ts.blocks());
    packed(ts.steps());
    packed(ts.lows());
    longs(ts.words());
    toc.putString(s.implicitColumn());
    toc.putInt(s.columns().size());
    for (Map.Entry<String, Column> e : s.columns().entrySet()) {
      toc.putString(e.getKey());
      column(e.getValue());
    }
    TokenIndex tokens = s.tokenIndex();
    toc.putByte(tokens == null ? 0 : 1);
    if (tokens != null) {
      dictionary(tokens.tokens());
      bitmapList(tokens.postings());
    }

    align();
    long tocOffset = position;
    byte[] tocBytes = toc.bytes();
    put(ByteBuffer.wrap(tocBytes));
    CRC32C tocCrc = new CRC32C();
    tocCrc.update(tocBytes);
    flush();
    long contentCrc = crc.getValue();

    ByteBuffer footer =
        ByteBuffer.allocate(SegmentFile.FOOTER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
    footer.putLong(tocOffset).putInt(tocBytes.length).putInt((int) tocCrc.getValue());
    footer.putInt((int) contentCrc);
    CRC32C footerCrc = new CRC32C();
    footerCrc.update(footer.array(), 0, 20);
    footer.putInt((int) footerCrc.getValue()).put(SegmentFile.END);
    put(footer.flip());
    flush();
    if (position > SegmentFile.MAX_FILE_BYTES) {
      throw new IllegalStateException("a segment file of " + position + " bytes is too large");
    }
    return position;
  }

  private void column(Column c) throws IOException {
    if (c instanceof LongColumn l) {
      toc.putByte(SegmentFile.LONG);
      bitmap(l.presence());
      toc.putInt(l.presentCount()).putLong(l.min()).putLong(l.max());
      packed(l.values());
      toc.putByte(l.index() == null ? 0 : 1);
      if (l.index() != null) {
        longs(l.index().values());
        bitmapList(l.index().postings());
      }
    } else if (c instanceof DoubleColumn d) {
      toc.putByte(SegmentFile.DOUBLE);
      bitmap(d.presence());
      toc.putInt(d.presentCount()).putDouble(d.min()).putDouble(d.max());
      doubles(d.values());
    } else if (c instanceof BoolColumn b) {
      toc.putByte(SegmentFile.BOOL);
      toc.putInt(b.rows());
      bitmap(b.trueRows());
      bitmap(b.falseRows());
    } else {
      StringColumn s = (StringColumn) c;
      toc.putByte(SegmentFile.STRING);
      bitmap(s.presence());
      toc.putInt(s.presentCount());
      dictionary(s.dictionary().compressed());
      packed(s.ordinals());
      toc.putByte(s.postings() == null ? 0 : 1);
      if (s.postings() != null) {
        bitmapList(s.postings());
      }
    }
  }

  private void packed(PackedLongs p) throws IOException {
    toc.putLong(p.min()).putByte(p.bits()).putInt(p.size());
    longs(p.words());
  }

  private void dictionary(StringDictionary d) throws IOException {
    toc.putByte(d.layout().ordinal()).putInt(d.size()).putInt(d.width());
    if (d.offsets() != null) {
      packed(d.offsets());
    }
    if (d.pageStarts() != null) {
      packed(d.pageStarts());
    }
    bytes(d.data());
    if (d.heads() != null) {
      dictionary(d.heads());
    }
  }

  private void bitmapList(BitmapList b) throws IOException {
    packed(b.entries());
    bytes(b.data());
  }

  /** A bitmap in Roaring's portable format; an empty block stands for {@code null}. */
  private void bitmap(ImmutableRoaringBitmap b) throws IOException {
    if (b == null) {
      block(0);
      return;
    }
    ByteBuffer serialized = ByteBuffer.allocate(b.serializedSizeInBytes());
    b.serialize(serialized);
    bytes(serialized.flip());
  }

  private void longs(LongBuffer values) throws IOException {
    block(8L * values.capacity());
    for (int i = 0; i < values.capacity(); i++) {
      room(8);
      chunk.putLong(values.get(i));
    }
    position += 8L * values.capacity();
  }

  private void doubles(DoubleBuffer values) throws IOException {
    block(8L * values.capacity());
    for (int i = 0; i < values.capacity(); i++) {
      room(8);
      chunk.putDouble(values.get(i));
    }
    position += 8L * values.capacity();
  }

  /** Every byte of a buffer, from 0 to its capacity. */
  private void bytes(ByteBuffer data) throws IOException {
    ByteBuffer d = data.duplicate().clear();
    block(d.remaining());
    put(d);
  }

  /** Starts a block at the next 8-byte boundary and records it in the table of contents. */
  private void block(long length) throws IOException {
    align();
    if (position + length > SegmentFile.MAX_FILE_BYTES) {
      throw new IllegalStateException("a segment file would be larger than 2 GiB");
    }
    toc.putInt((int) position).putInt((int) length);
  }

  private void align() throws IOException {
    while ((position & 7) != 0) {
      room(1);
      chunk.put((byte) 0);
      position++;
    }
  }

  /** Copies bytes to the file through the chunk, counting them. */
  private void put(ByteBuffer src) throws IOException {
    position += src.remaining();
    while (src.hasRemaining()) {
      room(1);
      int n = Math.min(chunk.remaining(), src.remaining());
      ByteBuffer part = src.duplicate();
      part.limit(part.position() + n);
      chunk.put(part);
      src.position(src.position() + n);
    }
  }

  private void room(int bytes) throws IOException {
    if (chunk.remaining() < bytes) {
      flush();
    }
  }

  private void flush() throws IOException {
    chunk.flip();
    crc.update(chunk.duplicate());
    while (chunk.hasRemaining()) {
      out.write(chunk);
    }
    chunk.clear();
  }

  /** The table of contents, built in memory (little-endian). */
  private static final class Toc {
    private ByteBuffer buf = ByteBuffer.allocate(1024).order(ByteOrder.LITTLE_ENDIAN);

    Toc putByte(int v) {
      room(1).put((byte) v);
      return this;
    }

    Toc putInt(int v) {
      room(4).putInt(v);
      return this;
    }

    Toc putLong(long v) {
      room(8).putLong(v);
      return this;
    }

    Toc putDouble(double v) {
      room(8).putDouble(v);
      return this;
    }

    Toc putString(String s) {
      if (s == null) {
        return putInt(-1);
      }
      byte[] b = s.getBytes(StandardCharsets.UTF_8);
      putInt(b.length);
      room(b.length).put(b);
      return this;
    }

    byte[] bytes() {
      byte[] out = new byte[buf.position()];
      buf.get(0, out);
      return out;
    }

    private ByteBuffer room(int n) {
      if (buf.remaining() < n) {
        ByteBuffer bigger =
            ByteBuffer.allocate(Math.max(buf.capacity() * 2, buf.position() + n))
                .order(ByteOrder.LITTLE_ENDIAN);
        buf.flip();
        bigger.put(buf);
        buf = bigger;
      }
      return buf;
    }
  }
}
