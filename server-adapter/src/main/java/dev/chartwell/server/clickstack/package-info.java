/**
 * The ClickStack observability resources of a service, durable in Chronicle Map: sources (scoped to
 * the service's warehouse, each mirrored by an engine source that holds its events in memory) and
 * dashboards, alerts and webhooks (scoped to the service, with their cross-references checked and
 * their cascades applied).
 */
package dev.chartwell.server.clickstack;
