/**
 * Sources and their events: the definition ({@link dev.chartwell.engine.source.SourceSpec}), the
 * dynamic schema (a field becomes a column with the type of its first value; later values are
 * converted only when nothing is lost), and {@link dev.chartwell.engine.source.Source}, which
 * serializes appends, seals its head into segments and hands queries consistent snapshots.
 */
package dev.chartwell.engine.source;
