package dev.chartwell.otlp;

/**
 * What checking a whole request found, before anything of it is stored.
 *
 * @param records how many records (log records, spans, data points) it holds
 * @param expandedBytes about how many bytes its rows will take: every record carries a copy of its
 *     resource and scope, so a request of many small records under large resources grows
 */
public record Checked(long records, long expandedBytes) {}
