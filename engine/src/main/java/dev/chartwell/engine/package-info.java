/**
 * The Chartwell engine: {@link dev.chartwell.engine.Engine} holds sources of events in columnar
 * segments, in memory or in a data directory (write-ahead logs, memory-mapped segment files,
 * manifests; opened again by the next engine), and answers chart queries over them. It applies
 * retention and a disk limit ({@code StorageLimits}) and opens a data directory's sources at start
 * ({@code SourceLoader}). It depends only on the parser module, RoaringBitmap and the JDK: no JSON,
 * no HTTP.
 */
package dev.chartwell.engine;
