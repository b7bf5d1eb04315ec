package dev.chartwell.prometheus;

import com.google.re2j.Pattern;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Compiled, fully anchored label regular expressions, shared (a dashboard repeats the same few).
 */
final class PatternCache {
  private static final int MAX = 4096;
  private static final Map<String, Pattern> CACHE = new ConcurrentHashMap<>();

  private PatternCache() {}

  static Pattern get(String re) {
    Pattern p = CACHE.get(re);
    if (p == null) {
      // Anchored as Prometheus anchors: ^(?:re)$, with . matching a newline too.
      p = Pattern.compile("^(?:" + re + ")$", Pattern.DOTALL);
      if (CACHE.size() >= MAX) {
        CACHE.clear();
      }
      CACHE.put(re, p);
    }
    return p;
  }
}
