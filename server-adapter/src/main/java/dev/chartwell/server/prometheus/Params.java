package dev.chartwell.server.prometheus;

import dev.chartwell.server.http.ApiException;
import dev.chartwell.server.http.Request;
import java.io.IOException;
import java.math.BigDecimal;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The parameters of a Prometheus API request: the query string and, for {@code POST}, the
 * url-encoded form body (as Prometheus reads both). Times are RFC 3339 or Unix seconds with a
 * fraction; durations Prometheus' ({@code 30s}, {@code 1h30m}, {@code 5ms}) or seconds.
 */
final class Params {
  private static final Pattern DURATION =
      Pattern.compile(
          "(?:(\\d+)y)?(?:(\\d+)w)?(?:(\\d+)d)?(?:(\\d+)h)?(?:(\\d+)m)?(?:(\\d+)s)?"
              + "(?:(\\d+)ms)?");
  private static final long[] UNIT_MS = {
    365L * 86_400_000, 7L * 86_400_000, 86_400_000L, 3_600_000L, 60_000L, 1_000L, 1L
  };

  private final Request request;
  private final Map<String, List<String>> form = new LinkedHashMap<>();

  private Params(Request request) {
    this.request = request;
  }

  /**
   * @param req the request
   * @return its parameters, the form body read for POST
   * @throws IOException when the body cannot be read
   */
  static Params of(Request req) throws IOException {
    Params p = new Params(req);
    if (req.method().equals("POST")) {
      String body = new String(req.bodyBytes(), StandardCharsets.UTF_8);
      for (String pair : body.split("&")) {
        if (pair.isEmpty()) {
          continue;
        }
        int eq = pair.indexOf('=');
        String k = eq < 0 ? pair : pair.substring(0, eq);
        String v = eq < 0 ? "" : pair.substring(eq + 1);
        try {
          p.form
              .computeIfAbsent(URLDecoder.decode(k, StandardCharsets.UTF_8), x -> new ArrayList<>())
              .add(URLDecoder.decode(v, StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
          throw ApiException.badRequest("the form body is not url-encoded: " + e.getMessage());
        }
      }
    }
    return p;
  }

  List<String> all(String name) {
    List<String> out = new ArrayList<>(request.queryParams(name));
    out.addAll(form.getOrDefault(name, List.of()));
    return out;
  }

  Optional<String> get(String name) {
    List<String> all = all(name);
    return all.isEmpty() ? Optional.empty() : Optional.of(all.get(0));
  }

  String required(String name) {
    return get(name)
        .filter(v -> !v.isEmpty())
        .orElseThrow(() -> ApiException.badRequest("invalid parameter \"" + name + "\": missing"));
  }

  /**
   * @param name the parameter
   * @param absent the value when it is absent
   * @return the time in epoch milliseconds
   */
  long time(String name, long absent) {
    Optional<String> v = get(name).filter(s -> !s.isEmpty());
    return v.isEmpty() ? absent : parseTime(name, v.get());
  }

  static long parseTime(String name, String v) {
    try {
      return new BigDecimal(v)
          .movePointRight(3)
          .setScale(0, java.math.RoundingMode.HALF_UP)
          .longValueExact();
    } catch (NumberFormatException | ArithmeticException e) {
      try {
        return OffsetDateTime.parse(v).toInstant().toEpochMilli();
      } catch (DateTimeParseException x) {
        throw ApiException.badRequest(
            "invalid parameter \""
                + name
                + "\": cannot parse \""
                + v
                + "\" to a valid timestamp (RFC 3339 or Unix seconds)");
      }
    }
  }

  /**
   * @param name the parameter
   * @param v its text
   * @return the duration in milliseconds
   */
  static long parseDuration(String name, String v) {
    try {
      double seconds = Double.parseDouble(v);
      if (Double.isFinite(seconds) && seconds >= 0) {
        return Math.round(seconds * 1000);
      }
    } catch (NumberFormatException e) {
      // not seconds: a Prometheus duration
    }
    Matcher m = DURATION.matcher(v);
    if (!v.isEmpty() && m.matches()) {
      long ms = 0;
      for (int i = 0; i < UNIT_MS.length; i++) {
        if (m.group(i + 1) != null) {
          ms = Math.addExact(ms, Math.multiplyExact(Long.parseLong(m.group(i + 1)), UNIT_MS[i]));
        }
      }
      return ms;
    }
    throw ApiException.badRequest(
        "invalid parameter \""
            + name
            + "\": cannot parse \""
            + v
            + "\" to a valid duration (like 30s, 1h30m or seconds)");
  }

  /**
   * @param v a sample value
   * @return it as Prometheus writes it ({@code 1}, {@code 0.5}, {@code NaN}, {@code +Inf})
   */
  static String value(double v) {
    if (Double.isNaN(v)) {
      return "NaN";
    }
    if (Double.isInfinite(v)) {
      return v > 0 ? "+Inf" : "-Inf";
    }
    if (v == 0) {
      return "0";
    }
    return new BigDecimal(Double.toString(v)).stripTrailingZeros().toPlainString();
  }

  /**
   * @param ms epoch milliseconds
   * @return Unix seconds with the milliseconds as a fraction
   */
  static BigDecimal seconds(long ms) {
    return BigDecimal.valueOf(ms, 3);
  }
}
