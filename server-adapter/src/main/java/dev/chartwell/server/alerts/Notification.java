package dev.chartwell.server.alerts;

/**
 * One notification to one webhook, as the outbox keeps it until it is delivered or given up: what
 * to say, and to whom. The request is built from it and the webhook's current definition at each
 * attempt.
 *
 * @param id the idempotency key, stable per (instance, window, state, webhook): the same
 *     notification decided twice (after a crash) has the same id and is sent once
 * @param alertId the alert
 * @param serviceId its service
 * @param webhookId the destination
 * @param state {@code ALERT} or {@code OK} ({@code INSUFFICIENT_DATA} for a test message)
 * @param title the title (HyperDX's)
 * @param body the body text (HyperDX's)
 * @param link a link to the chart or search, or {@code ""}
 * @param startTime the window start, epoch ms
 * @param endTime the window end, epoch ms
 * @param eventId stable per instance and webhook: pairs an ALERT with its OK
 * @param value the window's value
 * @param threshold the threshold as text ({@code 5}, {@code 5 and 7})
 * @param group the group, or {@code ""}
 * @param createdAt when it was decided, epoch ms
 */
public record Notification(
    String id,
    String alertId,
    String serviceId,
    String webhookId,
    String state,
    String title,
    String body,
    String link,
    long startTime,
    long endTime,
    String eventId,
    double value,
    String threshold,
    String group,
    long createdAt) {}
