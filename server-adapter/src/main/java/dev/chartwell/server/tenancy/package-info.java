/**
 * What keeps the services of one server from starving each other: per-service limits on concurrent
 * queries and ingestion requests ({@link dev.chartwell.server.tenancy.ServiceLimits}), queries on
 * external ClickHouse connections run off the HTTP workers under {@code --query-timeout} ({@link
 * dev.chartwell.server.tenancy.ExternalQueries}), and per-service disk quotas ({@link
 * dev.chartwell.server.tenancy.DiskQuotas}). The engine shares memory and disk fairly between the
 * services' warehouses (its tenants).
 */
package dev.chartwell.server.tenancy;
