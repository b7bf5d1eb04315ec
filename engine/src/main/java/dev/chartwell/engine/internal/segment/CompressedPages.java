package dev.chartwell.engine.internal.segment;

import com.github.luben.zstd.Zstd;
import java.nio.ByteBuffer;

/**
 * The front-coded entries of a large dictionary in segment files, compressed with Zstandard a page
 * at a time: each page holds {@link #PAGE_BLOCKS} front-coding blocks (1,024 entries). Sorted log
 * bodies share more than the prefix front coding removes (a template's words after a number that
 * differs, the same numbers again), so a page shrinks to about a fifth. Reading one entry
 * decompresses its page (about 20 KB, tens of microseconds); the page read last is kept, so that a
 * walk through neighbouring entries decompresses each page once.
 */
final class CompressedPages {
  /** Front-coding blocks per page. */
  static final int PAGE_BLOCKS = 64;

  /** Zstandard's level: its fastest, which here compresses as well as the default. */
  private static final int LEVEL = 1;

  private final ByteBuffer data;
  private final PackedLongs pageStarts;
  private final PackedLongs blockStarts;
  private volatile Page last;

  private record Page(int index, byte[] bytes) {}

  /**
   * @param data the compressed pages back to back
   * @param pageStarts where each page starts in {@code data}, and the end of the last
   * @param blockStarts where each front-coding block starts in the uncompressed entries, and the
   *     end of the last
   */
  CompressedPages(ByteBuffer data, PackedLongs pageStarts, PackedLongs blockStarts) {
    this.data = data;
    this.pageStarts = pageStarts;
    this.blockStarts = blockStarts;
  }

  /**
   * @param frontCoded the front-coded entries ({@link FrontCoding})
   * @param blockStarts where each block starts in them, and the end of the last
   * @return the pages, compressed
   */
  static CompressedPages compress(ByteBuffer frontCoded, PackedLongs blockStarts) {
    int blocks = blockStarts.size() - 1;
    int pages = pages(blocks);
    long[] starts = new long[pages + 1];
    byte[][] compressed = new byte[pages][];
    long total = 0;
    for (int p = 0; p < pages; p++) {
      int from = (int) blockStarts.get(p * PAGE_BLOCKS);
      int to = (int) blockStarts.get(Math.min(blocks, (p + 1) * PAGE_BLOCKS));
      byte[] page = new byte[to - from];
      frontCoded.get(from, page);
      compressed[p] = Zstd.compress(page, LEVEL);
      starts[p] = total;
      total += compressed[p].length;
    }
    starts[pages] = total;
    ByteBuffer data = ByteBuffer.allocate(Math.toIntExact(total));
    for (byte[] c : compressed) {
      data.put(c);
    }
    return new CompressedPages(data.flip(), PackedLongs.pack(starts, pages + 1), blockStarts);
  }

  /**
   * @param blocks front-coding blocks
   * @return pages that hold them
   */
  static int pages(int blocks) {
    return (blocks + PAGE_BLOCKS - 1) / PAGE_BLOCKS;
  }

  /**
   * @param page a page
   * @return its entries, front-coded, from the start of its first block
   */
  byte[] page(int page) {
    Page p = last;
    if (p != null && p.index() == page) {
      return p.bytes();
    }
    int blocks = blockStarts.size() - 1;
    int from = (int) pageStarts.get(page);
    byte[] compressed = new byte[(int) pageStarts.get(page + 1) - from];
    data.get(from, compressed);
    int size =
        (int)
            (blockStarts.get(Math.min(blocks, (page + 1) * PAGE_BLOCKS))
                - blockStarts.get(page * PAGE_BLOCKS));
    byte[] bytes = Zstd.decompress(compressed, size);
    if (bytes.length != size) {
      throw new IllegalStateException(
          "a dictionary page decompressed to " + bytes.length + " bytes, not " + size);
    }
    last = new Page(page, bytes);
    return bytes;
  }

  /**
   * @param block a front-coding block
   * @return where it starts in its page's bytes
   */
  int offsetInPage(int block) {
    return (int) (blockStarts.get(block) - blockStarts.get(block / PAGE_BLOCKS * PAGE_BLOCKS));
  }

  /**
   * @return the compressed pages
   */
  ByteBuffer data() {
    return data;
  }

  /**
   * @return where each page starts in {@link #data}, and the end of the last
   */
  PackedLongs pageStarts() {
    return pageStarts;
  }

  /**
   * @return the bytes the pages and their starts take
   */
  long bytes() {
    return data.capacity() + pageStarts.bytes();
  }
}
