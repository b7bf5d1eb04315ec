/**
 * The ClickStack resources of a service under {@code .../services/{serviceId}/clickstack/}, in the
 * shapes of the ClickHouse Cloud document and durable in Chronicle Map: sources (routes only; they
 * live in the warehouse's {@link dev.chartwell.server.catalog.Catalog}), and dashboards, alerts,
 * webhooks, saved searches and roles (scoped to the service, with their cross-references checked
 * and their cascades applied).
 */
package dev.chartwell.server.clickstack;
