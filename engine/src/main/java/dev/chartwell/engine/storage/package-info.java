/**
 * Durable storage of a source's events. {@link dev.chartwell.engine.storage.WriteAheadLog} is the
 * first step of a write: appended events, encoded by {@link
 * dev.chartwell.engine.storage.EventCodec}, reach the log's files (and, per {@link
 * dev.chartwell.engine.storage.FsyncPolicy}, the disk) before an append is acknowledged; at start
 * the log is verified, a torn tail is cut, and the records after the last published segment are
 * replayed into the in-memory head. Once events are in immutable segment files, the log files that
 * only hold older records are deleted. Bad bytes that a crash cannot explain are reported as {@link
 * dev.chartwell.engine.storage.StorageCorruptedException}, never skipped; a failed write or fsync
 * turns into {@link dev.chartwell.engine.storage.StorageFailedException} for every later append.
 */
package dev.chartwell.engine.storage;
