/**
 * Alerts that fire: {@link dev.chartwell.server.alerts.Alerts} evaluates the alerts of every
 * running service once per UTC minute ({@link dev.chartwell.server.alerts.Schedule} places their
 * windows, {@link dev.chartwell.server.alerts.Transition} steps each instance through OK, PENDING
 * and ALERT), keeps their history for 30 days, and delivers their notifications to webhooks through
 * a durable outbox, with retries, per-request timeouts and idempotency keys.
 */
package dev.chartwell.server.alerts;
