package dev.chartwell.engine.segment;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;
import java.util.List;
import org.roaringbitmap.buffer.ImmutableRoaringBitmap;
import org.roaringbitmap.buffer.MutableRoaringBitmap;

/**
 * Many Roaring bitmaps serialized back to back in one buffer, addressed by position. A value's rows
 * cost their serialized size and no Java object until a query asks for them, which keeps
 * high-cardinality dictionaries and token indexes compact (the approach of Druid's bitmap indexes).
 *
 * <p>A bitmap of at most {@link #MAX_SHORT} rows is stored in a shorter form: a marker byte and the
 * rows as 4-byte integers (5 bytes for one row instead of Roaring's 18). Unique values such as
 * trace ids are nearly all single rows, so this form is most of their index.
 *
 * <p>The buffers are Java arrays for a segment built in memory, or views of a memory-mapped segment
 * file ({@link SegmentFile}).
 */
public final class BitmapList {
  /** Most rows stored in the short form; beyond it Roaring is smaller. */
  static final int MAX_SHORT = 7;

  /**
   * First byte of the short form. A serialized Roaring bitmap starts with its little-endian cookie,
   * whose first byte is 0x3A or 0x3B, so the two forms cannot be confused.
   */
  private static final byte SHORT = 1;

  private final ByteBuffer data; // big-endian: the short form's rows
  private final IntBuffer offsets;

  private BitmapList(ByteBuffer data, IntBuffer offsets) {
    this.data = data;
    this.offsets = offsets;
  }

  /**
   * Reads a list back from its parts, as {@link SegmentFile} stores them.
   *
   * @param offsets where each bitmap starts, and the end of the last
   * @param data the serialized bitmaps, back to back
   * @return the list
   * @throws IllegalArgumentException when the offsets do not describe the data
   */
  static BitmapList of(IntBuffer offsets, ByteBuffer data) {
    int n = offsets.capacity();
    if (n < 1 || offsets.get(0) != 0 || offsets.get(n - 1) != data.capacity()) {
      throw new IllegalArgumentException("bitmap offsets do not match their data");
    }
    return new BitmapList(data.order(ByteOrder.BIG_ENDIAN), offsets);
  }

  /**
   * @param bitmaps the bitmaps, in position order (run-optimized here)
   * @return the serialized list
   */
  public static BitmapList of(List<MutableRoaringBitmap> bitmaps) {
    int[] offsets = new int[bitmaps.size() + 1];
    long total = 0;
    for (int i = 0; i < bitmaps.size(); i++) {
      MutableRoaringBitmap b = bitmaps.get(i);
      offsets[i] = (int) total;
      if (isShort(b)) {
        total += 1 + 4L * b.getCardinality();
      } else {
        b.runOptimize();
        total += b.serializedSizeInBytes();
      }
    }
    if (total > Integer.MAX_VALUE) {
      throw new IllegalStateException("bitmap index larger than 2 GiB in one segment");
    }
    offsets[bitmaps.size()] = (int) total;
    ByteBuffer data = ByteBuffer.allocate((int) total);
    for (MutableRoaringBitmap b : bitmaps) {
      if (isShort(b)) {
        data.put(SHORT);
        b.forEach((int row) -> data.putInt(row));
      } else {
        b.serialize(data);
      }
    }
    data.flip();
    return new BitmapList(data, IntBuffer.wrap(offsets));
  }

  /**
   * @param index a position
   * @return a read-only view of that bitmap
   */
  public ImmutableRoaringBitmap get(int index) {
    int from = offsets.get(index);
    int to = offsets.get(index + 1);
    if (data.get(from) == SHORT) {
      int[] rows = new int[(to - from - 1) >> 2];
      for (int i = 0; i < rows.length; i++) {
        rows[i] = data.getInt(from + 1 + 4 * i);
      }
      return MutableRoaringBitmap.bitmapOf(rows);
    }
    return new ImmutableRoaringBitmap(data.slice(from, to - from));
  }

  private static boolean isShort(MutableRoaringBitmap b) {
    return b.getCardinality() <= MAX_SHORT;
  }

  /**
   * @return the number of bitmaps
   */
  public int size() {
    return offsets.capacity() - 1;
  }

  /**
   * @return the serialized bitmaps (read with absolute gets)
   */
  ByteBuffer data() {
    return data;
  }

  /**
   * @return where each bitmap starts, and the end of the last
   */
  IntBuffer offsets() {
    return offsets;
  }

  /**
   * @return bytes of the bitmaps and their offsets
   */
  public long bytes() {
    return 48L + data.capacity() + 4L * offsets.capacity();
  }
}
