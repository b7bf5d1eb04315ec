package dev.chartwell.engine.internal.storage;

/** Receives the records of {@link WriteAheadLog#replay}, in position order. */
@FunctionalInterface
public interface RecordConsumer {
  /**
   * @param position the record's position (sequence number)
   * @param record the record's bytes, a fresh array the consumer may keep
   */
  void accept(long position, byte[] record);
}
