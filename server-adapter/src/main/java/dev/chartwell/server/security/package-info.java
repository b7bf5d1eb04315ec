/**
 * What the server may do on a user's behalf: {@link dev.chartwell.server.security.OutboundPolicy}
 * decides which addresses requests the server makes for its users (webhook deliveries and tests,
 * ClickHouse connections) may reach, after resolving each name once.
 */
package dev.chartwell.server.security;
