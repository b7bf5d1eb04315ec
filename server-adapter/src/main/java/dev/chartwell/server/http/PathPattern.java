package dev.chartwell.server.http;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A route path such as {@code /v1/organizations/{organizationId}/services/{serviceId}}: literal
 * segments and named parameters, each parameter matching exactly one non-empty segment.
 */
public final class PathPattern {
  private final String text;
  private final List<String> segments;

  private PathPattern(String text, List<String> segments) {
    this.text = text;
    this.segments = segments;
  }

  /**
   * @param pattern the pattern, starting with {@code /}
   * @return the compiled pattern
   */
  public static PathPattern of(String pattern) {
    if (!pattern.startsWith("/")) {
      throw new IllegalArgumentException("path pattern must start with '/': " + pattern);
    }
    List<String> segments = split(pattern);
    for (String s : segments) {
      boolean param = s.startsWith("{") && s.endsWith("}");
      if (!param && (s.contains("{") || s.contains("}"))) {
        throw new IllegalArgumentException("malformed path parameter in " + pattern);
      }
    }
    return new PathPattern(pattern, segments);
  }

  /**
   * Matches a request path.
   *
   * @param path the decoded request path
   * @return the path parameters by name, or empty when the path does not match
   */
  public Optional<Map<String, String>> match(List<String> path) {
    if (path.size() != segments.size()) {
      return Optional.empty();
    }
    Map<String, String> params = new LinkedHashMap<>();
    for (int i = 0; i < segments.size(); i++) {
      String expected = segments.get(i);
      String actual = path.get(i);
      if (expected.startsWith("{")) {
        if (actual.isEmpty()) {
          return Optional.empty();
        }
        params.put(expected.substring(1, expected.length() - 1), actual);
      } else if (!expected.equals(actual)) {
        return Optional.empty();
      }
    }
    return Optional.of(params);
  }

  /**
   * Splits a path into segments, ignoring one trailing slash ({@code /a/b/} is {@code /a/b}).
   *
   * @param path a path starting with {@code /}
   * @return its segments
   */
  public static List<String> split(String path) {
    List<String> out = new ArrayList<>();
    int start = 1;
    String p =
        path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    if (p.equals("/") || p.isEmpty()) {
      return out;
    }
    while (start <= p.length()) {
      int slash = p.indexOf('/', start);
      int end = slash < 0 ? p.length() : slash;
      out.add(p.substring(start, end));
      start = end + 1;
    }
    return out;
  }

  @Override
  public String toString() {
    return text;
  }
}
