package dev.chartwell.engine.internal.segment;

import java.nio.ByteBuffer;

/**
 * A {@link StringDictionary} put back together from the parts a segment file stores it as ({@link
 * SegmentFile}): its layout, size, width, offsets and data, and for the {@code FRONT_CODED_PAGES}
 * layout its page starts and page heads. Kept apart from the dictionary's lookups because it is
 * about the serialized form: which parts each layout has and how their sizes must agree. The parts
 * are checked from their sizes alone; reading the data here would cost random reads per part when a
 * restart opens hundreds of files, and the content is verified by its checksum before a query reads
 * it.
 */
final class StringDictionaryParts {
  private StringDictionaryParts() {}

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
   * @throws IllegalArgumentException when the parts do not fit together
   */
  static StringDictionary of(
      StringDictionary.Layout layout, int size, int width, PackedLongs offsets, ByteBuffer data) {
    boolean ok =
        switch (layout) {
          case PLAIN -> offsets != null && offsets.size() == size + 1;
          case FRONT_CODED ->
              offsets != null
                  && width == FrontCoding.BLOCK
                  && size >= 0
                  && offsets.size() == FrontCoding.blocks(size) + 1;
          case FIXED, HEX ->
              offsets == null
                  && width >= 0
                  && (long) size * width == data.capacity()
                  && (layout == StringDictionary.Layout.FIXED || width > 0);
          case FRONT_CODED_PAGES -> false; // ofPages
        };
    if (!ok || size < 0) {
      throw new IllegalArgumentException("dictionary parts do not describe its data");
    }
    return new StringDictionary(layout, data, offsets, width, size);
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
    int blocks = FrontCoding.blocks(size);
    int pageCount = CompressedPages.pages(blocks);
    if (size < 0
        || blockStarts.size() != blocks + 1
        || pageStarts.size() != pageCount + 1
        || heads.size() != pageCount) {
      throw new IllegalArgumentException("dictionary parts do not describe its data");
    }
    return new StringDictionary(
        StringDictionary.Layout.FRONT_CODED_PAGES,
        data,
        blockStarts,
        FrontCoding.BLOCK,
        size,
        new CompressedPages(data, pageStarts, blockStarts),
        heads);
  }
}
