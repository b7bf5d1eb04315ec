/**
 * Chartwell's embeddable chart engine: the whole public API, in this one package.
 *
 * <p>An {@link dev.chartwell.engine.Engine} holds {@link dev.chartwell.engine.Source}s of {@link
 * dev.chartwell.engine.Event}s in columnar segments, in memory or in a data directory (write-ahead
 * logs, memory-mapped segment files, manifests; opened again by the next engine), and answers
 * {@link dev.chartwell.engine.ChartQuery chart queries} (time buckets × {@link
 * dev.chartwell.engine.Series} × groups) and {@link dev.chartwell.engine.SearchQuery searches} over
 * them. Sources, series, queries and searches are built with builders and static factories that
 * read like the chart they ask for; every deliberate refusal is a {@link
 * dev.chartwell.engine.ChartwellException}. The package also holds the engine's own package-private
 * helpers: the storage limits ({@code StorageLimits}), the loading of a data directory's sources at
 * start ({@code SourceLoader}) and the heap watch behind {@code maxHeapOccupancy}.
 *
 * <p>Everything else lives in {@code dev.chartwell.engine.internal.*}: the columnar segments and
 * their files, filters, aggregation, execution, storage. Those packages are shared with Chartwell's
 * own modules (the server, the ClickHouse backend) and are not an API. The engine depends only on
 * the parser module, RoaringBitmap, zstd-jni and the JDK: no JSON, no HTTP.
 */
package dev.chartwell.engine;
