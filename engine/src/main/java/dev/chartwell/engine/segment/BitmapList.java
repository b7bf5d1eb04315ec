package dev.chartwell.engine.segment;

import java.nio.ByteBuffer;
import java.util.List;
import org.roaringbitmap.buffer.ImmutableRoaringBitmap;
import org.roaringbitmap.buffer.MutableRoaringBitmap;

/**
 * Many Roaring bitmaps serialized back to back in one buffer, addressed by position. A value's rows
 * cost their serialized size and no Java object until a query asks for them, which keeps
 * high-cardinality dictionaries and token indexes compact (the approach of Druid's bitmap indexes).
 */
public final class BitmapList {
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
      b.runOptimize();
      offsets[i] = (int) total;
      total += b.serializedSizeInBytes();
    }
    if (total > Integer.MAX_VALUE) {
      throw new IllegalStateException("bitmap index larger than 2 GiB in one segment");
    }
    offsets[bitmaps.size()] = (int) total;
    ByteBuffer data = ByteBuffer.allocate((int) total);
    for (MutableRoaringBitmap b : bitmaps) {
      b.serialize(data);
    }
    data.flip();
    return new BitmapList(data.asReadOnlyBuffer(), offsets);
  }

  /**
   * @param index a position
   * @return a read-only view of that bitmap
   */
  public ImmutableRoaringBitmap get(int index) {
    ByteBuffer slice = data.duplicate();
    slice.position(offsets[index]).limit(offsets[index + 1]);
    return new ImmutableRoaringBitmap(slice.slice());
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
