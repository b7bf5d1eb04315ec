/**
 * The built-in web UI: its static files (plain ES modules, a stylesheet and the vendored uPlot
 * chart library, all under {@code ui/} in the jar) served at {@code /} and {@code /ui/...} with
 * ETags, and the UI's own page paths ({@code /dashboards/{serviceId}/{dashboardId}}, {@code
 * /explore/...}) answered with its {@code index.html} so that they can be bookmarked. The UI reads
 * everything through the public APIs with an organization's API key; this package serves files
 * only.
 */
package dev.chartwell.server.ui;
