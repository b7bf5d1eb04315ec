package dev.chartwell.engine;

/**
 * What happened to the queries an engine was given since it started.
 *
 * @param running queries running now
 * @param completed queries that answered (including those that failed validation)
 * @param timedOut queries stopped by their deadline
 * @param cancelled queries cancelled through their control
 * @param overBudget queries stopped for needing more memory than their budget
 * @param refused queries refused because too many ran and waited
 */
public record QueryCounters(
    int running, long completed, long timedOut, long cancelled, long overBudget, long refused) {}
