package dev.chartwell.engine.internal.segment;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Builds a {@link StringDictionary} from sorted distinct strings: chooses the smallest layout that
 * holds them ({@code HEX} packing, {@code FIXED}, front coding when it pays, else {@code PLAIN})
 * and compresses a front-coded dictionary a page at a time for a segment file. Kept apart from the
 * dictionary's lookups because it runs once per segment column, while the dictionary itself is read
 * on every query.
 */
final class StringDictionaryBuilder {
  private StringDictionaryBuilder() {}

  /**
   * @param sorted distinct strings, as UTF-8, in {@link String#compareTo} order
   * @return the dictionary, in the smallest layout that holds them
   */
  static StringDictionary of(Utf8Strings sorted) {
    int n = sorted.size();
    byte[] bytes = sorted.data();
    boolean fixed = n > 0;
    int width = n > 0 ? sorted.length(0) : 0;
    for (int i = 0; i < n && fixed; i++) {
      fixed = sorted.length(i) == width;
    }
    long total = sorted.totalBytes();
    if (fixed && width > 0 && (width & 1) == 0) { // back to back: the entries' digits, all of them
      byte[] data = new byte[Math.multiplyExact(n, width / 2)];
      if (HexDigits.pack(bytes, sorted.start(0), data)) {
        return new StringDictionary(
            StringDictionary.Layout.HEX, ByteBuffer.wrap(data), null, width / 2, n);
      }
    }
    if (fixed) {
      byte[] data = Arrays.copyOfRange(bytes, sorted.start(0), sorted.start(0) + (int) total);
      return new StringDictionary(
          StringDictionary.Layout.FIXED, ByteBuffer.wrap(data), null, width, n);
    }
    if (total >= StringDictionary.FRONT_CODING_MIN_BYTES && frontCodingPays(sorted, total)) {
      return frontCoded(sorted);
    }
    long[] offsets = new long[n + 1];
    int base = n > 0 ? sorted.start(0) : 0;
    for (int i = 0; i <= n; i++) {
      offsets[i] = sorted.bounds()[i] - base;
    }
    byte[] data = Arrays.copyOfRange(bytes, base, base + (int) total);
    return new StringDictionary(
        StringDictionary.Layout.PLAIN,
        ByteBuffer.wrap(data),
        PackedLongs.pack(offsets, n + 1),
        0,
        n);
  }

  /**
   * @param sorted distinct strings, as UTF-8, in {@link String#compareTo} order
   * @return them in the {@code FRONT_CODED} layout, whatever their size
   */
  static StringDictionary frontCoded(Utf8Strings sorted) {
    FrontCoding.Encoded e = FrontCoding.encode(sorted);
    PackedLongs starts = PackedLongs.pack(e.blockStarts(), e.blockStarts().length);
    return new StringDictionary(
        StringDictionary.Layout.FRONT_CODED,
        ByteBuffer.wrap(e.data()),
        starts,
        FrontCoding.BLOCK,
        sorted.size());
  }

  /** Whether front coding saves at least a quarter of the bytes of entries and offsets. */
  private static boolean frontCodingPays(Utf8Strings sorted, long total) {
    long plain = total + (long) sorted.size() * bits(total) / 8;
    long front = FrontCoding.size(sorted);
    long frontCoded = front + (long) FrontCoding.blocks(sorted.size()) * bits(front) / 8;
    return frontCoded * 4 <= plain * 3;
  }

  private static int bits(long max) {
    return 64 - Long.numberOfLeadingZeros(max);
  }

  /**
   * A front-coded dictionary with its blocks compressed a page at a time, as a segment file keeps a
   * column's: when that saves at least a quarter of its bytes.
   *
   * @param dictionary a dictionary
   * @return the compressed dictionary, or {@code dictionary} when it is not front-coded or
   *     compressing would not pay
   */
  static StringDictionary compressed(StringDictionary dictionary) {
    if (dictionary.layout() != StringDictionary.Layout.FRONT_CODED) {
      return dictionary;
    }
    StringDictionary pages = paged(dictionary);
    return pages.bytes() * 4 > dictionary.bytes() * 3 ? dictionary : pages;
  }

  /**
   * @param dictionary a dictionary in the {@code FRONT_CODED} layout
   * @return it in the {@code FRONT_CODED_PAGES} layout
   */
  static StringDictionary paged(StringDictionary dictionary) {
    CompressedPages compressed = CompressedPages.compress(dictionary.data(), dictionary.offsets());
    int pageEntries = FrontCoding.BLOCK * CompressedPages.PAGE_BLOCKS;
    List<String> first = new ArrayList<>();
    for (int id = 0; id < dictionary.size(); id += pageEntries) {
      first.add(dictionary.get(id));
    }
    return new StringDictionary(
        StringDictionary.Layout.FRONT_CODED_PAGES,
        compressed.data(),
        dictionary.offsets(),
        dictionary.width(),
        dictionary.size(),
        compressed,
        StringDictionary.of(first));
  }
}
