package dev.chartwell.server.management;

/**
 * An organization: the owner of API keys and services.
 *
 * @param id UUID
 * @param name display name
 * @param tier {@code BASIC}, {@code SCALE} or {@code ENTERPRISE}
 * @param paid whether paid limits apply
 * @param createdAt ISO-8601 instant
 */
public record Organization(String id, String name, String tier, boolean paid, String createdAt) {}
