package dev.chartwell.engine.internal.segment;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;

/**
 * The sorted distinct strings of a segment column. Ids are positions in {@link String#compareTo}
 * order, so a range of strings is a range of ids and the first and last entries are the column's
 * zone map. Entries are compared as bytes, without decoding them.
 *
 * <p>Four layouts, chosen when the dictionary is built ({@link Layout}):
 *
 * <ul>
 *   <li>{@code PLAIN}: UTF-8 entries back to back and a bit-packed offset per entry;
 *   <li>{@code FIXED}: every entry has the same UTF-8 length, so no offsets are stored;
 *   <li>{@code HEX}: every entry is lowercase hexadecimal of the same even length (trace and span
 *       ids), stored as the bytes it spells, half its length. Lowercase hex digits sort as their
 *       values do, so the bytes keep the strings' order;
 *   <li>{@code FRONT_CODED}: blocks of entries, each after the first stored as the prefix length it
 *       shares with the one before and the rest ({@link FrontCoding}), with a bit-packed offset per
 *       block. Chosen for large dictionaries whose sorted entries share prefixes (log bodies, URLs,
 *       the token index): an entry costs up to {@code BLOCK - 1} decoding steps, so small
 *       dictionaries, which grouping and distinct counting compare often, stay in the others.
 *   <li>{@code FRONT_CODED_PAGES}: a front-coded column dictionary as a segment file keeps it, its
 *       blocks compressed a page at a time ({@link CompressedPages}), with the first entry of each
 *       page beside them for lookups. Reading an entry decompresses its page.
 * </ul>
 *
 * <p>The buffers are Java arrays for a segment built in memory, or views of a memory-mapped segment
 * file ({@link SegmentFile}).
 */
public final class StringDictionary {
  /** How the entries are stored. */
  enum Layout {
    PLAIN,
    FIXED,
    HEX,
    FRONT_CODED,
    FRONT_CODED_PAGES
  }

  /** Dictionaries with fewer bytes of entries than this are never front-coded. */
  static final int FRONT_CODING_MIN_BYTES = 64 * 1024;

  private static final VarHandle BIG_ENDIAN_LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  private final Layout layout;
  private final ByteBuffer data; // big-endian, for prefix keys
  private final PackedLongs offsets; // PLAIN: size + 1 entries; FRONT_CODED: blocks + 1
  private final int width; // FIXED, HEX: bytes per entry (HEX: half its characters); FRONT_CODED:
  // entries per block
  private final int size;
  private final CompressedPages pages; // FRONT_CODED_PAGES: the blocks, compressed
  private final StringDictionary heads; // FRONT_CODED_PAGES: the first entry of each page

  StringDictionary(Layout layout, ByteBuffer data, PackedLongs offsets, int width, int size) {
    this(layout, data, offsets, width, size, null, null);
  }

  StringDictionary(
      Layout layout,
      ByteBuffer data,
      PackedLongs offsets,
      int width,
      int size,
      CompressedPages pages,
      StringDictionary heads) {
    this.layout = layout;
    this.data = data.order(ByteOrder.BIG_ENDIAN);
    this.offsets = offsets;
    this.width = width;
    this.size = size;
    this.pages = pages;
    this.heads = heads;
  }

  /**
   * This front-coded dictionary with its blocks compressed a page at a time, as a segment file
   * keeps a column's: when that saves at least a quarter of its bytes.
   *
   * @return the compressed dictionary, or this one when compressing would not pay
   */
  StringDictionary compressed() {
    return StringDictionaryBuilder.compressed(this);
  }

  /**
   * @return this front-coded dictionary in the {@code FRONT_CODED_PAGES} layout
   */
  StringDictionary paged() {
    return StringDictionaryBuilder.paged(this);
  }

  /**
   * Reads a {@code FRONT_CODED_PAGES} dictionary back from its parts, as {@link SegmentFile} stores
   * them.
   *
   * @param size the number of entries
   * @param blockStarts where each block starts in the uncompressed entries, and the end of the last
   * @param pageStarts where each page starts in {@code data}, and the end of the last
   * @param data the compressed pages
   * @param heads the first entry of each page
   * @return the dictionary
   * @throws IllegalArgumentException when the parts do not fit together
   */
  static StringDictionary ofPages(
      int size,
      PackedLongs blockStarts,
      PackedLongs pageStarts,
      ByteBuffer data,
      StringDictionary heads) {
    return StringDictionaryParts.ofPages(size, blockStarts, pageStarts, data, heads);
  }

  /**
   * @param sortedDistinct distinct strings in {@link String#compareTo} order
   * @return the dictionary, in the smallest layout that holds them
   */
  public static StringDictionary of(List<String> sortedDistinct) {
    return of(Utf8Strings.of(sortedDistinct));
  }

  /**
   * @param sorted distinct strings, as UTF-8, in {@link String#compareTo} order
   * @return the dictionary, in the smallest layout that holds them
   */
  static StringDictionary of(Utf8Strings sorted) {
    return StringDictionaryBuilder.of(sorted);
  }

  /**
   * @param entries distinct lowercase hex strings, sorted, each packed two digits to a byte
   * @param width bytes per entry
   * @param size the number of entries
   * @return them in the {@code HEX} layout
   */
  static StringDictionary hex(byte[] entries, int width, int size) {
    return new StringDictionary(Layout.HEX, ByteBuffer.wrap(entries), null, width, size);
  }

  /**
   * @param sortedDistinct distinct strings in {@link String#compareTo} order
   * @return them in the {@code FRONT_CODED} layout, whatever their size
   */
  static StringDictionary frontCoded(List<String> sortedDistinct) {
    return StringDictionaryBuilder.frontCoded(Utf8Strings.of(sortedDistinct));
  }

  /**
   * Reads a dictionary back from its parts, as {@link SegmentFile} stores them.
   *
   * @param layout how the entries are stored
   * @param size the number of entries
   * @param width bytes per entry ({@code FIXED} and {@code HEX})
   * @param offsets where each entry ({@code PLAIN}) or block ({@code FRONT_CODED}) starts and the
   *     end of the last, else {@code null}
   * @param data the entries
   * @return the dictionary
   * @throws IllegalArgumentException when the parts do not fit together (checked from their sizes
   *     alone: reading the data here would cost random reads per part when a restart opens hundreds
   *     of files; the content is verified by its checksum before a query reads it)
   */
  static StringDictionary of(
      Layout layout, int size, int width, PackedLongs offsets, ByteBuffer data) {
    return StringDictionaryParts.of(layout, size, width, offsets, data);
  }

  /**
   * @return the number of distinct strings
   */
  public int size() {
    return size;
  }

  /** Where an entry's stored bytes start. */
  int from(int id) {
    return layout == Layout.PLAIN ? (int) offsets.get(id) : id * width;
  }

  /** An entry's stored bytes (half its UTF-8 length for {@code HEX}). */
  private int stored(int id, int from) {
    return layout == Layout.PLAIN ? (int) offsets.get(id + 1) - from : width;
  }

  /**
   * @param id an id from 0 to {@code size() - 1}
   * @return the string
   */
  public String get(int id) {
    if (frontCoded()) {
      FrontCoding.Reader r = decode(id);
      return new String(r.entry(), 0, r.length(), StandardCharsets.UTF_8);
    }
    int from = from(id);
    int length = stored(id, from);
    if (layout == Layout.HEX) {
      byte[] chars = new byte[2 * length];
      for (int i = 0; i < length; i++) {
        int b = data.get(from + i);
        chars[2 * i] = HexDigits.digit(b >> 4);
        chars[2 * i + 1] = HexDigits.digit(b);
      }
      return new String(chars, StandardCharsets.ISO_8859_1);
    }
    if (data.hasArray()) {
      return new String(data.array(), data.arrayOffset() + from, length, StandardCharsets.UTF_8);
    }
    byte[] bytes = new byte[length];
    data.get(from, bytes);
    return new String(bytes, StandardCharsets.UTF_8);
  }

  /**
   * @return the entries in id order; cheaper than {@link #get} of each id in the {@code
   *     FRONT_CODED} layout, where it decodes every entry once ({@link DictionaryEntries})
   */
  public Iterator<String> iterator() {
    return DictionaryEntries.iterator(this);
  }

  /**
   * @param value a string
   * @return its id, or {@code -(insertion point) - 1} when absent (as {@link Arrays#binarySearch})
   */
  public int indexOf(String value) {
    byte[] key = value.getBytes(StandardCharsets.UTF_8);
    if (layout == Layout.FRONT_CODED) {
      return frontCodedIndexOf(key, data, 0, FrontCoding.blocks(size));
    }
    if (layout == Layout.FRONT_CODED_PAGES) {
      int page = heads.indexOf(value);
      int pageEntries = FrontCoding.BLOCK * CompressedPages.PAGE_BLOCKS;
      if (page >= 0) {
        return page * pageEntries;
      }
      page = -page - 2; // the last page whose first entry is below the key
      if (page < 0) {
        return -1;
      }
      int firstBlock = page * CompressedPages.PAGE_BLOCKS;
      int endBlock = Math.min(FrontCoding.blocks(size), firstBlock + CompressedPages.PAGE_BLOCKS);
      return frontCodedIndexOf(
          key, ByteBuffer.wrap(pages.page(page)).order(ByteOrder.BIG_ENDIAN), firstBlock, endBlock);
    }
    boolean binary = false; // a HEX layout's key packed as its entries are
    if (layout == Layout.HEX && key.length == 2 * width) {
      byte[] packed = new byte[width];
      binary = HexDigits.pack(key, 0, packed);
      key = binary ? packed : key;
    }
    int lo = 0;
    int hi = size - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      int c = binary || layout != Layout.HEX ? compareStored(mid, key) : compareChars(mid, key);
      if (c < 0) {
        lo = mid + 1;
      } else if (c > 0) {
        hi = mid - 1;
      } else {
        return mid;
      }
    }
    return -(lo + 1);
  }

  /**
   * Binary search over the first entries of blocks {@code [firstBlock, endBlock)} (stored whole, in
   * {@code bytes}), then a walk through the one block that can hold the key.
   */
  private int frontCodedIndexOf(byte[] key, ByteBuffer bytes, int firstBlock, int endBlock) {
    int lo = firstBlock;
    int hi = endBlock - 1;
    while (lo <= hi) { // the last block whose first entry is at most the key ends at hi
      int mid = (lo + hi) >>> 1;
      int c = FrontCoding.compareFirst(bytes, blockStart(mid), key);
      if (c == 0) {
        return mid * FrontCoding.BLOCK;
      } else if (c < 0) {
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    if (hi < firstBlock) {
      return -(firstBlock * FrontCoding.BLOCK + 1);
    }
    int id = hi * FrontCoding.BLOCK;
    int end = Math.min(size, id + FrontCoding.BLOCK);
    FrontCoding.Reader r = new FrontCoding.Reader(bytes, blockStart(hi));
    r.first();
    while (++id < end) {
      r.next();
      int c = Utf8Order.compareRanked(r.entry(), r.length(), key, key.length);
      if (c == 0) {
        return id;
      } else if (c > 0) {
        return -(id + 1);
      }
    }
    return -(end + 1);
  }

  /** Where a block starts: in {@link #data}, or in its page's bytes. */
  private int blockStart(int block) {
    return pages == null ? (int) offsets.get(block) : pages.offsetInPage(block);
  }

  /** A reader at the start of a block of a front-coded dictionary. */
  FrontCoding.Reader blockReader(int block) {
    if (pages == null) {
      return new FrontCoding.Reader(data, (int) offsets.get(block));
    }
    byte[] page = pages.page(block / CompressedPages.PAGE_BLOCKS);
    return new FrontCoding.Reader(
        ByteBuffer.wrap(page).order(ByteOrder.BIG_ENDIAN), pages.offsetInPage(block));
  }

  boolean frontCoded() {
    return layout == Layout.FRONT_CODED || layout == Layout.FRONT_CODED_PAGES;
  }

  /** A reader left at entry {@code id} of a front-coded dictionary. */
  private FrontCoding.Reader decode(int id) {
    int block = id / FrontCoding.BLOCK;
    FrontCoding.Reader r = blockReader(block);
    r.first();
    for (int i = block * FrontCoding.BLOCK; i < id; i++) {
      r.next();
    }
    return r;
  }

  /** An entry's UTF-8 bytes. */
  private byte[] utf8(int id) {
    if (frontCoded()) {
      FrontCoding.Reader r = decode(id);
      return Arrays.copyOf(r.entry(), r.length());
    }
    byte[] out = new byte[utf8Length(id)];
    for (int i = 0; i < out.length; i++) {
      out[i] = (byte) charAt(id, i);
    }
    return out;
  }

  /** Compares an entry's stored bytes with a key in the same form, in string order. */
  private int compareStored(int id, byte[] key) {
    int from = from(id);
    int length = stored(id, from);
    int n = Math.min(length, key.length);
    int i = 0;
    for (; i + 8 <= n; i += 8) {
      if (data.getLong(from + i) != (long) BIG_ENDIAN_LONG.get(key, i)) {
        break; // the difference is within these 8 bytes
      }
    }
    for (; i < n; i++) {
      byte a = data.get(from + i);
      if (a != key[i]) {
        return rank(a & 0xFF) - rank(key[i] & 0xFF);
      }
    }
    return Integer.compare(length, key.length);
  }

  /** The order of a stored byte at the first difference: hex bytes as they are, UTF-8 ranked. */
  private int rank(int b) {
    return layout == Layout.HEX ? b : Utf8Order.utf16Rank(b);
  }

  /** Compares a {@code HEX} entry with the UTF-8 bytes of any string, character by character. */
  private int compareChars(int id, byte[] key) {
    int length = 2 * width;
    int n = Math.min(length, key.length);
    for (int i = 0; i < n; i++) {
      int a = charAt(id, i);
      int b = key[i] & 0xFF;
      if (a != b) {
        return Utf8Order.utf16Rank(a) - Utf8Order.utf16Rank(b);
      }
    }
    return Integer.compare(length, key.length);
  }

  /** Byte {@code i} of an entry's UTF-8 form. */
  int charAt(int id, int i) {
    if (layout != Layout.HEX) {
      return data.get(from(id) + i) & 0xFF;
    }
    int b = data.get(id * width + (i >> 1));
    return HexDigits.digit((i & 1) == 0 ? b >> 4 : b);
  }

  /** An entry's UTF-8 length. */
  int utf8Length(int id) {
    return layout == Layout.HEX ? 2 * width : stored(id, from(id));
  }

  /**
   * Compares two entries, of this dictionary and of another, in {@link String#compareTo} order
   * without decoding them.
   *
   * <p>UTF-8 bytes sort in code point order, which is {@link String#compareTo} (UTF-16) order
   * except between supplementary characters (lead bytes F0-F4) and U+E000-U+FFFF (lead bytes EE and
   * EF): UTF-16 puts the supplementary characters, as surrogates, first. The first differing bytes
   * of two valid UTF-8 strings sit at the same position of a character, so swapping those lead
   * bytes' ranks restores the UTF-16 order.
   *
   * @param id an entry of this dictionary
   * @param other another dictionary (or this one)
   * @param otherId an entry of {@code other}
   * @return negative, zero or positive as entry {@code id} is less than, equal to or greater than
   *     the other entry
   */
  public int compare(int id, StringDictionary other, int otherId) {
    if (frontCoded() || other.frontCoded()) {
      byte[] a = utf8(id);
      byte[] b = other.utf8(otherId);
      return Utf8Order.compareRanked(a, a.length, b, b.length);
    }
    if ((layout == Layout.HEX) != (other.layout == Layout.HEX)) {
      return compareMixed(id, other, otherId);
    }
    // Both as UTF-8, or both as hex bytes (whose order is their strings' order).
    int from = from(id);
    int length = stored(id, from);
    int otherFrom = other.from(otherId);
    int otherLength = other.stored(otherId, otherFrom);
    int n = Math.min(length, otherLength);
    ByteBuffer a = data;
    ByteBuffer b = other.data;
    int i = 0;
    for (; i + 8 <= n; i += 8) {
      if (a.getLong(from + i) != b.getLong(otherFrom + i)) {
        break; // the difference is within these 8 bytes
      }
    }
    for (; i < n; i++) {
      byte x = a.get(from + i);
      byte y = b.get(otherFrom + i);
      if (x != y) {
        return rank(x & 0xFF) - rank(y & 0xFF);
      }
    }
    return Integer.compare(length, otherLength); // a proper prefix sorts first
  }

  /** One dictionary stores hex bytes, the other UTF-8: compare their UTF-8 forms byte by byte. */
  private int compareMixed(int id, StringDictionary other, int otherId) {
    int length = utf8Length(id);
    int otherLength = other.utf8Length(otherId);
    int n = Math.min(length, otherLength);
    for (int i = 0; i < n; i++) {
      int x = charAt(id, i);
      int y = other.charAt(otherId, i);
      if (x != y) {
        return Utf8Order.utf16Rank(x) - Utf8Order.utf16Rank(y);
      }
    }
    return Integer.compare(length, otherLength);
  }

  /**
   * The first 8 bytes of an entry as an unsigned big-endian number, each byte replaced by its rank
   * in {@link String#compareTo} order and missing bytes by 0. When two entries' prefixes differ,
   * {@link Long#compareUnsigned} of the prefixes orders them as {@link #compare} does; when they
   * are equal, only {@link #compare} can tell.
   *
   * @param id an entry
   * @return its prefix key
   */
  public long prefix(int id) {
    if (layout == Layout.HEX) {
      return hexPrefix(id);
    }
    long key;
    if (frontCoded()) {
      FrontCoding.Reader r = decode(id);
      key = 0;
      for (int i = 0; i < Math.min(8, r.length()); i++) {
        key |= (long) (r.entry()[i] & 0xFF) << (56 - 8 * i);
      }
      return Utf8Order.ranked(key);
    }
    int from = from(id);
    int n = stored(id, from);
    if (n >= 8) {
      key = data.getLong(from);
    } else {
      key = 0;
      for (int i = 0; i < n; i++) {
        key |= (long) (data.get(from + i) & 0xFF) << (56 - 8 * i);
      }
    }
    return Utf8Order.ranked(key);
  }

  /** The first 8 hex digits of a {@code HEX} entry as ASCII (their own ranks). */
  private long hexPrefix(int id) {
    int from = id * width;
    if (width >= 4) {
      return HexDigits.ascii(data.getInt(from));
    }
    int digits = Math.min(8, 2 * width);
    long key = 0;
    for (int i = 0; i < digits; i++) {
      int b = data.get(from + (i >> 1));
      key |= (long) HexDigits.digit((i & 1) == 0 ? b >> 4 : b) << (56 - 8 * i);
    }
    return key;
  }

  /**
   * @return how the entries are stored
   */
  Layout layout() {
    return layout;
  }

  /**
   * @return bytes per entry ({@code FIXED}, {@code HEX}), entries per block ({@code FRONT_CODED}),
   *     0 for {@code PLAIN}
   */
  int width() {
    return width;
  }

  /**
   * @return the stored entries (read with absolute gets)
   */
  ByteBuffer data() {
    return data;
  }

  /**
   * @return where each entry starts, and the end of the last ({@code PLAIN}); where each block
   *     starts (uncompressed), and the end of the last ({@code FRONT_CODED}, {@code
   *     FRONT_CODED_PAGES}); else {@code null}
   */
  PackedLongs offsets() {
    return offsets;
  }

  /**
   * @return bytes of the entries and their offsets
   */
  public long bytes() {
    return 32L
        + data.capacity()
        + (offsets == null ? 0 : offsets.bytes())
        + (pages == null ? 0 : pages.pageStarts().bytes() + heads.bytes());
  }

  /**
   * @return where each page starts in {@link #data()} ({@code FRONT_CODED_PAGES}), else {@code
   *     null}
   */
  PackedLongs pageStarts() {
    return pages == null ? null : pages.pageStarts();
  }

  /**
   * @return the first entry of each page ({@code FRONT_CODED_PAGES}), else {@code null}
   */
  StringDictionary heads() {
    return heads;
  }
}
