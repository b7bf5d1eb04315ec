/**
 * HyperDX's external API ({@code /api/v2}): the service's sources, dashboards, alerts, webhooks,
 * saved searches and connections in the shapes of HyperDX's document, as a second view of the same
 * stored resources the ClickHouse Cloud API's {@code clickstack} paths show; event search; who is
 * calling and the team. Every request is authenticated by a service's Bearer token and sees that
 * service (and its warehouse's sources and connections). The chart query and ingestion are in
 * {@code charts}.
 */
package dev.chartwell.server.hyperdx;
