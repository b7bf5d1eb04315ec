/**
 * The Chartwell engine: {@link dev.chartwell.engine.Engine} holds sources of events in columnar
 * in-memory segments and answers chart queries over them. It depends only on the parser module,
 * RoaringBitmap and the JDK: no JSON, no HTTP.
 */
package dev.chartwell.engine;
