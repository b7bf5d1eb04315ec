package dev.chartwell.engine.internal.segment;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * A {@link StringDictionary}'s entries read whole, in id order: the front-coded layouts decoded
 * block by block (each entry once, instead of up to a block's worth of steps per {@link
 * StringDictionary#get}), the others read entry by entry. Kept apart from the dictionary, which
 * answers for one entry at a time (lookups, comparisons, prefixes).
 */
final class DictionaryEntries {
  private DictionaryEntries() {}

  /**
   * @param d a dictionary
   * @return its entries as strings, in id order
   */
  static Iterator<String> iterator(StringDictionary d) {
    return new Iterator<>() {
      private FrontCoding.Reader reader = d.frontCoded() ? d.blockReader(0) : null;
      private int next;

      @Override
      public boolean hasNext() {
        return next < d.size();
      }

      @Override
      public String next() {
        if (next >= d.size()) {
          throw new NoSuchElementException();
        }
        int id = next++;
        if (reader == null) {
          return d.get(id);
        }
        if (d.pageStarts() != null && id % (FrontCoding.BLOCK * CompressedPages.PAGE_BLOCKS) == 0) {
          reader = d.blockReader(id / FrontCoding.BLOCK); // the next page
        }
        if (id % FrontCoding.BLOCK == 0) {
          reader.first(); // blocks lie back to back, so the reader walks on into the next one
        } else {
          reader.next();
        }
        return new String(reader.entry(), 0, reader.length(), StandardCharsets.UTF_8);
      }
    };
  }

  /**
   * Every entry as UTF-8, in id order, with no object per entry.
   *
   * @param d a dictionary
   * @return its entries
   */
  static Utf8Strings utf8(StringDictionary d) {
    int size = d.size();
    int[] bounds = new int[size + 1];
    byte[] out = new byte[Math.max(16, d.data().capacity())];
    int end = 0;
    FrontCoding.Reader reader = null;
    boolean hex = d.layout() == StringDictionary.Layout.HEX;
    for (int id = 0; id < size; id++) {
      int length;
      if (d.frontCoded()) {
        if (id % FrontCoding.BLOCK == 0) {
          reader = d.blockReader(id / FrontCoding.BLOCK);
          reader.first();
        } else {
          reader.next();
        }
        length = reader.length();
      } else {
        length = d.utf8Length(id);
      }
      if (end + length > out.length) {
        out = Arrays.copyOf(out, Math.max(end + length, 2 * out.length));
      }
      if (reader != null) {
        System.arraycopy(reader.entry(), 0, out, end, length);
      } else if (hex) {
        for (int i = 0; i < length; i++) {
          out[end + i] = (byte) d.charAt(id, i);
        }
      } else {
        d.data().get(d.from(id), out, end, length);
      }
      end += length;
      bounds[id + 1] = end;
    }
    return new Utf8Strings(out, bounds, size);
  }
}
