/**
 * Internal (not part of the API; it changes without notice). Durable storage of sources' events.
 * {@link dev.chartwell.engine.internal.storage.WriteAheadLog} is the first step of a write:
 * appended events, encoded many to a record by {@link
 * dev.chartwell.engine.internal.storage.BatchCodec} (logs written before it hold one event a
 * record, {@link dev.chartwell.engine.internal.storage.EventCodec}), reach the log's files (and,
 * per {@link dev.chartwell.engine.FsyncPolicy}, the disk) before an append is acknowledged. {@link
 * dev.chartwell.engine.internal.storage.SourceFiles} keeps one source's log, segment files and
 * {@link dev.chartwell.engine.internal.storage.Manifest}s (the commit point that lists the segment
 * files and the log position they cover) and recovers them at start; {@link
 * dev.chartwell.engine.internal.storage.EngineFiles} is the data directory of all sources, with its
 * lock, the quarantine folder for damaged files and the background verifier of segment checksums.
 * Bad bytes that a crash cannot explain are reported, set aside and never served; a failed write or
 * fsync refuses every later append of that source ({@link
 * dev.chartwell.engine.StorageFailedException}).
 */
package dev.chartwell.engine.internal.storage;
