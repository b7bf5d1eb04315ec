package dev.chartwell.engine;

/**
 * The byte-keyed index of an {@link EventBatch}'s field names: the hash of a name's UTF-8 bytes and
 * the open-addressing slot table (field + 1, or 0 for free) that lets a parser holding names as
 * UTF-8 find a field without making a {@link String}. Static and allocation-free; the batch owns
 * the table and its growth.
 */
final class FieldNames {
  private FieldNames() {}

  /** The hash of a field name's UTF-8 bytes. */
  static int hash(byte[] utf8, int from, int to) {
    int h = 1;
    for (int i = from; i < to; i++) {
      h = 31 * h + utf8[i];
    }
    return h ^ (h >>> 16);
  }

  /** Puts a field in the first free slot from its hash (the table has a free slot). */
  static void slot(int[] nameSlots, int hash, int field) {
    int mask = nameSlots.length - 1;
    int slot = hash & mask;
    while (nameSlots[slot] != 0) {
      slot = (slot + 1) & mask;
    }
    nameSlots[slot] = field + 1;
  }
}
