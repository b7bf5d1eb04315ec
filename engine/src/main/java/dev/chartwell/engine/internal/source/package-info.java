/**
 * Internal (not part of the API; it changes without notice). Sources and their events: the
 * definition ({@link dev.chartwell.engine.SourceSpec}), the dynamic schema (a field becomes a
 * column with the type of its first value; later values are converted only when nothing is lost),
 * {@link dev.chartwell.engine.EventBatch}, events held by field as they are appended (checked a
 * field at a time by {@code BatchCheck}), and {@link
 * dev.chartwell.engine.internal.source.SourceCore}, which serializes appends, has its {@link
 * dev.chartwell.engine.internal.source.SourceStorage} log them, hands full heads to a sealing
 * thread that turns them into segments, and gives queries consistent snapshots (with references on
 * the mapped segments they read). Its {@link dev.chartwell.engine.internal.source.SealedSegments}
 * list the sealed segments and publish every change to them (a seal, a drop, a merge). {@link
 * dev.chartwell.engine.internal.source.JsonStrings} writes event text into JSON strings for those
 * who send events on (an external store, a webhook).
 */
package dev.chartwell.engine.internal.source;
