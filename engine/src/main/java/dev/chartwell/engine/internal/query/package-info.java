/**
 * Internal (not part of the API; it changes without notice). What the server and the other backends
 * share with the engine around a query: {@link dev.chartwell.engine.internal.query.Backend}, where
 * a source's queries run (the embedded engine through {@code Backend.of(engine)}, or ClickHouse),
 * so that the server renders every backend's answers with one code path; and {@link
 * dev.chartwell.engine.internal.query.Languages}, which maps the API's {@link
 * dev.chartwell.engine.WhereLanguage} to the parser module's, so that users never import parser
 * types.
 */
package dev.chartwell.engine.internal.query;
