package dev.chartwell.engine.internal.segment;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.LongBuffer;
import java.util.Arrays;
import java.util.List;
import org.roaringbitmap.buffer.ImmutableRoaringBitmap;
import org.roaringbitmap.buffer.MappeableArrayContainer;
import org.roaringbitmap.buffer.MappeableBitmapContainer;
import org.roaringbitmap.buffer.MutableRoaringArray;
import org.roaringbitmap.buffer.MutableRoaringBitmap;

/**
 * Many Roaring bitmaps serialized back to back in one buffer, addressed by position. A value's rows
 * cost their serialized size and no Java object until a query asks for them, which keeps
 * high-cardinality dictionaries and token indexes compact (the approach of Druid's bitmap indexes).
 *
 * <p>Each position has one bit-packed entry ({@link PackedLongs}). A bitmap of a single row, which
 * is nearly every value of a unique column such as a trace id, is held in its entry alone: {@code
 * row << 1 | 1}, about 2.5 bytes at 262,144 rows. Any other bitmap's entry is {@code offset << 1}
 * into the data, where it is stored self-delimited: up to {@link #MAX_SHORT} rows as a marker byte,
 * a count byte and the rows as 4-byte integers; beyond that in Roaring's portable format.
 *
 * <p>Segment files of format version 1 hold an older layout, still read: an int32 offset per
 * position (and one past the last), the short form without its count byte. It is read through the
 * same {@link PackedLongs} as 32-bit values.
 *
 * <p>The buffers are Java arrays for a segment built in memory, or views of a memory-mapped segment
 * file ({@link SegmentFile}).
 */
public final class BitmapList {
  /** Most rows stored in the short form; beyond it Roaring is smaller. */
  static final int MAX_SHORT = 7;

  /** Most values a Roaring array container holds; a container of more is a bitmap. */
  private static final int ARRAY_LIMIT = 4096;

  /**
   * First byte of the short form. A serialized Roaring bitmap starts with its little-endian cookie,
   * whose first byte is 0x3A or 0x3B, so the two forms cannot be confused.
   */
  private static final byte SHORT = 1;

  private final ByteBuffer data; // big-endian: the short form's rows
  private final PackedLongs entries;
  private final boolean tagged; // false: version 1, entries are offsets (one more than positions)

  private BitmapList(ByteBuffer data, PackedLongs entries, boolean tagged) {
    this.data = data;
    this.entries = entries;
    this.tagged = tagged;
  }

  /**
   * Reads a list back from its parts, as {@link SegmentFile} stores them.
   *
   * @param entries one entry per bitmap, as {@link #entries()} returns them
   * @param data the bitmaps that are not single rows, back to back
   * @return the list (entries are not read here: a file's content is verified by its checksum
   *     before a query reads it)
   */
  static BitmapList of(PackedLongs entries, ByteBuffer data) {
    return new BitmapList(data.order(ByteOrder.BIG_ENDIAN), entries, true);
  }

  /**
   * Reads a list in the layout of segment format version 1.
   *
   * @param offsets where each bitmap starts, and the end of the last (32-bit values)
   * @param data the serialized bitmaps, back to back
   * @return the list (offsets are not read here, as for {@link #of(PackedLongs, ByteBuffer)})
   * @throws IllegalArgumentException when there are no offsets at all
   */
  static BitmapList ofVersion1(PackedLongs offsets, ByteBuffer data) {
    if (offsets.size() < 1) {
      throw new IllegalArgumentException("a bitmap list without offsets");
    }
    return new BitmapList(data.order(ByteOrder.BIG_ENDIAN), offsets, false);
  }

  /**
   * @param bitmaps the bitmaps, in position order (run-optimized here)
   * @return the serialized list
   */
  public static BitmapList of(List<MutableRoaringBitmap> bitmaps) {
    long[] entries = new long[bitmaps.size()];
    long total = 0;
    for (int i = 0; i < bitmaps.size(); i++) {
      MutableRoaringBitmap b = bitmaps.get(i);
      int cardinality = b.getCardinality();
      if (cardinality == 1) {
        entries[i] = (Integer.toUnsignedLong(b.first()) << 1) | 1;
        continue;
      }
      entries[i] = total << 1;
      if (cardinality <= MAX_SHORT) {
        total += 2 + 4L * cardinality;
      } else {
        b.runOptimize();
        total += b.serializedSizeInBytes();
      }
    }
    if (total > Integer.MAX_VALUE) {
      throw new IllegalStateException("bitmap index larger than 2 GiB in one segment");
    }
    ByteBuffer data = ByteBuffer.allocate((int) total);
    for (MutableRoaringBitmap b : bitmaps) {
      int cardinality = b.getCardinality();
      if (cardinality == 1) {
        continue;
      }
      if (cardinality <= MAX_SHORT) {
        data.put(SHORT).put((byte) cardinality);
        b.forEach((int row) -> data.putInt(row));
      } else {
        b.serialize(data);
      }
    }
    data.flip();
    return new BitmapList(data, PackedLongs.pack(entries, entries.length), true);
  }

  /**
   * The list of bitmaps given as ascending rows grouped by position. The same bytes as {@link
   * #of(List)} of the same bitmaps, built without a Roaring bitmap for the positions of up to
   * {@link #MAX_SHORT} rows.
   *
   * @param grouped the rows of each position
   * @return the serialized list
   */
  static BitmapList of(GroupedRows grouped) {
    int[] starts = grouped.starts();
    int[] rows = grouped.rows();
    int n = starts.length - 1;
    long[] entries = new long[n];
    MutableRoaringBitmap[] large = new MutableRoaringBitmap[n];
    boolean[] repeated = new boolean[n];
    java.util.Map<Long, Integer> byHash = new java.util.HashMap<>();
    long total = 0;
    for (int i = 0; i < n; i++) {
      int count = starts[i + 1] - starts[i];
      if (count == 1) {
        entries[i] = (Integer.toUnsignedLong(rows[starts[i]]) << 1) | 1;
        continue;
      }
      if (count > MAX_SHORT) {
        // The same rows stored once: words of one log template hold the same rows.
        Integer same = byHash.putIfAbsent(hash(rows, starts[i], starts[i + 1]), i);
        if (same != null
            && Arrays.equals(
                rows, starts[same], starts[same + 1], rows, starts[i], starts[i + 1])) {
          entries[i] = entries[same];
          repeated[i] = true;
          continue;
        }
      }
      entries[i] = total << 1;
      if (count <= MAX_SHORT) {
        total += 2 + 4L * count;
      } else {
        MutableRoaringBitmap b = ofAscending(rows, starts[i], starts[i + 1]);
        b.runOptimize();
        large[i] = b;
        total += b.serializedSizeInBytes();
      }
    }
    if (total > Integer.MAX_VALUE) {
      throw new IllegalStateException("bitmap index larger than 2 GiB in one segment");
    }
    ByteBuffer data = ByteBuffer.allocate((int) total);
    for (int i = 0; i < n; i++) {
      int count = starts[i + 1] - starts[i];
      if (large[i] != null) {
        large[i].serialize(data);
      } else if (count != 1 && !repeated[i]) {
        data.put(SHORT).put((byte) count);
        for (int r = starts[i]; r < starts[i + 1]; r++) {
          data.putInt(rows[r]);
        }
      }
    }
    data.flip();
    return new BitmapList(data, PackedLongs.pack(entries, entries.length), true);
  }

  /**
   * A bitmap of ascending rows, each Roaring container built whole from its rows (a bitmap of 1,024
   * words for more than 4,096, an array otherwise) rather than one row at a time: {@link
   * MutableRoaringBitmap#addN} inserts into an array container that grows step by step and is
   * converted when it passes 4,096. The containers are the ones {@code addN} ends with.
   *
   * @param rows holds the rows, ascending and distinct
   * @param from the first
   * @param to one past the last
   * @return the bitmap of those rows
   */
  static MutableRoaringBitmap ofAscending(int[] rows, int from, int to) {
    MutableRoaringArray containers = new MutableRoaringArray(4);
    for (int i = from; i < to; ) {
      int high = rows[i] >>> 16;
      int end = i + 1;
      while (end < to && rows[end] >>> 16 == high) {
        end++;
      }
      int count = end - i;
      if (count > ARRAY_LIMIT) {
        long[] words = new long[1 << 10];
        for (int k = i; k < end; k++) {
          words[(rows[k] >>> 6) & 1023] |= 1L << rows[k];
        }
        containers.append((char) high, new MappeableBitmapContainer(LongBuffer.wrap(words), count));
      } else {
        char[] lows = new char[count];
        for (int k = i; k < end; k++) {
          lows[k - i] = (char) rows[k];
        }
        containers.append((char) high, new MappeableArrayContainer(CharBuffer.wrap(lows), count));
      }
      i = end;
    }
    return new MutableRoaringBitmap(containers);
  }

  private static long hash(int[] rows, int from, int to) {
    long h = to - from;
    for (int i = from; i < to; i++) {
      h = (h + rows[i]) * 0x9E3779B97F4A7C15L;
    }
    return h;
  }

  /**
   * @param index a position
   * @return a read-only view of that bitmap
   */
  public ImmutableRoaringBitmap get(int index) {
    if (!tagged) {
      return getVersion1(index);
    }
    long e = entries.get(index);
    if ((e & 1) != 0) {
      return MutableRoaringBitmap.bitmapOf((int) (e >>> 1));
    }
    int from = (int) (e >>> 1);
    if (data.get(from) == SHORT) {
      return shortForm(from + 2, data.get(from + 1));
    }
    return new ImmutableRoaringBitmap(data.slice(from, data.capacity() - from));
  }

  private ImmutableRoaringBitmap getVersion1(int index) {
    int from = (int) entries.get(index);
    int to = (int) entries.get(index + 1);
    if (data.get(from) == SHORT) {
      return shortForm(from + 1, (to - from - 1) >> 2);
    }
    return new ImmutableRoaringBitmap(data.slice(from, to - from));
  }

  private MutableRoaringBitmap shortForm(int from, int count) {
    int[] rows = new int[count];
    for (int i = 0; i < count; i++) {
      rows[i] = data.getInt(from + 4 * i);
    }
    return MutableRoaringBitmap.bitmapOf(rows);
  }

  /**
   * Every bitmap's rows, read back without an object per single-row or short bitmap: the inverse of
   * {@link #of(GroupedRows)}.
   *
   * @return the ascending rows of each position
   */
  GroupedRows grouped() {
    int n = size();
    int[] starts = new int[n + 1];
    ImmutableRoaringBitmap[] others = new ImmutableRoaringBitmap[n];
    long total = 0;
    for (int i = 0; i < n; i++) {
      long e = tagged ? entries.get(i) : 0;
      int count;
      if (!tagged) {
        others[i] = getVersion1(i);
        count = others[i].getCardinality();
      } else if ((e & 1) != 0) {
        count = 1;
      } else if (data.get((int) (e >>> 1)) == SHORT) {
        count = data.get((int) (e >>> 1) + 1);
      } else {
        int from = (int) (e >>> 1);
        others[i] = new ImmutableRoaringBitmap(data.slice(from, data.capacity() - from));
        count = others[i].getCardinality();
      }
      total += count;
      if (total > Integer.MAX_VALUE - 8) {
        throw new IllegalStateException("more than 2^31 rows in one bitmap list");
      }
      starts[i + 1] = (int) total;
    }
    int[] rows = new int[(int) total];
    for (int i = 0; i < n; i++) {
      int at = starts[i];
      if (others[i] != null) {
        for (var it = others[i].getIntIterator(); it.hasNext(); ) {
          rows[at++] = it.next();
        }
        continue;
      }
      long e = entries.get(i);
      if ((e & 1) != 0) {
        rows[at] = (int) (e >>> 1);
      } else {
        int from = (int) (e >>> 1) + 2;
        for (int k = 0; k < starts[i + 1] - at; k++) {
          rows[at + k] = data.getInt(from + 4 * k);
        }
      }
    }
    return new GroupedRows(starts, rows);
  }

  /**
   * @return the number of bitmaps
   */
  public int size() {
    return tagged ? entries.size() : entries.size() - 1;
  }

  /**
   * @return the bitmaps that are not single rows (read with absolute gets)
   */
  ByteBuffer data() {
    return data;
  }

  /**
   * @return one entry per bitmap: a single row as {@code row << 1 | 1}, otherwise {@code offset <<
   *     1} into {@link #data()}
   * @throws IllegalStateException for a list read in the version 1 layout (never written again)
   */
  PackedLongs entries() {
    if (!tagged) {
      throw new IllegalStateException("a version 1 bitmap list is not written again");
    }
    return entries;
  }

  /**
   * @return bytes of the bitmaps and their entries
   */
  public long bytes() {
    return 48L + data.capacity() + entries.bytes();
  }
}
