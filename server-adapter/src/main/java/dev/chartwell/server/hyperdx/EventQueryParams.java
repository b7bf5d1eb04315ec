package dev.chartwell.server.hyperdx;

import com.fasterxml.jackson.databind.JsonNode;
import dev.chartwell.parser.WhereLanguage;
import dev.chartwell.server.http.ApiException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The body fields the routes that read a source's events share (search, facets, patterns): the
 * source, the time range and the where. Read in two steps, so that a route's own fields are checked
 * in between and every problem of a body is told at once.
 *
 * @param sourceId the source's id
 * @param start the range's start; {@code null} until {@link #resolved}
 * @param end the range's end (exclusive); {@code null} until {@link #resolved}
 * @param where the where, or {@code null}
 * @param language the where's language
 */
record EventQueryParams(
    String sourceId, Instant start, Instant end, String where, WhereLanguage language) {
  /** The range a body without {@code startTime} covers, up to its end. */
  static final Duration DEFAULT_RANGE = Duration.ofMinutes(15);

  /**
   * Reads the shared fields, adding what is wrong with them to {@code problems}.
   *
   * @param body the request body
   * @param maxSourceIdLength the longest source id the route reads
   * @param problems where problems are added
   * @return the fields as given (times may be {@code null})
   */
  static EventQueryParams read(JsonNode body, int maxSourceIdLength, List<String> problems) {
    String sourceId = Params.sourceId(body, maxSourceIdLength, problems);
    Instant end = Params.time(body, "endTime", problems);
    Instant start = Params.time(body, "startTime", problems);
    String where = Params.text(body, "where", 8192, problems);
    WhereLanguage language = Params.whereLanguage(body, problems);
    return new EventQueryParams(sourceId, start, end, where, language);
  }

  /**
   * @param clock the time a body without {@code endTime} ends at
   * @return the same with the range completed: up to now, the last {@link #DEFAULT_RANGE}
   * @throws ApiException 400 when the range is empty or reversed
   */
  EventQueryParams resolved(Clock clock) {
    Instant to = end == null ? Instant.now(clock) : end;
    Instant from = start == null ? to.minus(DEFAULT_RANGE) : start;
    if (!from.isBefore(to)) {
      throw ApiException.badRequest("endTime: must be after startTime");
    }
    return new EventQueryParams(sourceId, from, to, where, language);
  }
}
