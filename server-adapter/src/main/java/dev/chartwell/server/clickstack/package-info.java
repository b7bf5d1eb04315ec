/**
 * The ClickStack observability resources of a service (sources so far), scoped to the service's
 * warehouse and durable in Chronicle Map. Each source is mirrored by an engine source that holds
 * its events in memory.
 */
package dev.chartwell.server.clickstack;
