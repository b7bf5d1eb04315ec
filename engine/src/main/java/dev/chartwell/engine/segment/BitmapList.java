package dev.chartwell.engine.segment;

import java.nio.ByteBuffer;
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
 */
public final class BitmapList {
  /** Most rows stored in the short form; beyond it Roaring is smaller. */
  static final int MAX_SHORT = 7;

  /**
   * First byte of the short form. A serialized Roaring bitmap starts with its little-endian cookie,
   * whose first byte is 0x3A or 0x3B, so the two forms cannot be confused.
   */
  private static final byte SHORT = 1;

  private final ByteBuffer data;
  private final int[] offsets;

  private BitmapList(ByteBuffer data, int[] offsets) {
    this.data = data;
    this.offsets = offsets;
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
    return new BitmapList(data.asReadOnlyBuffer(), offsets);
  }

  /**
   * @param index a position
   * @return a read-only view of that bitmap
   */
  public ImmutableRoaringBitmap get(int index) {
    int from = offsets[index];
    int to = offsets[index + 1];
    if (data.get(from) == SHORT) {
      int[] rows = new int[(to - from - 1) >> 2];
      for (int i = 0; i < rows.length; i++) {
        rows[i] = data.getInt(from + 1 + 4 * i);
      }
      return MutableRoaringBitmap.bitmapOf(rows);
    }
    ByteBuffer slice = data.duplicate();
    slice.position(from).limit(to);
    return new ImmutableRoaringBitmap(slice.slice());
  }

  private static boolean isShort(MutableRoaringBitmap b) {
    return b.getCardinality() <= MAX_SHORT;
  }

  /**
   * @return the number of bitmaps
   */
  public int size() {
    return offsets.length - 1;
  }

  /**
   * @return heap bytes used
   */
  public long bytes() {
    return 48L + data.capacity() + 4L * offsets.length;
  }
}
