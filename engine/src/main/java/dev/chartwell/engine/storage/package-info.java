/**
 * Durable storage of a source's events. {@link dev.chartwell.engine.storage.EventCodec} encodes an
 * event as a compact, self-contained record and decodes it exactly, for the write-ahead log that
 * acknowledged events reach before they are in segment files.
 */
package dev.chartwell.engine.storage;
