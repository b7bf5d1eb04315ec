package dev.chartwell.server;

import dev.chartwell.engine.FsyncPolicy;
import dev.chartwell.server.ServerConfig.ApiKeySpec;
import dev.chartwell.server.ServerConfig.TlsSpec;
import dev.chartwell.server.security.OutboundPolicy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.regex.Pattern;

/** Looks values up flag-first, then environment, and validates them. */
record FlagValues(Map<String, String> given, Map<String, String> env) {
  private static final Pattern DURATION = Pattern.compile("(\\d{1,9})(ms|s|m|h)");
  private static final Pattern RETENTION = Pattern.compile("(\\d{1,6})(m|h|d|w)");
  private static final Pattern KEY_ID = Pattern.compile("[A-Za-z0-9_-]{1,64}");
  private static final Pattern SECRET = Pattern.compile("[\\x21-\\x7e]{8,256}");
  private static final Pattern IPV4 =
      Pattern.compile("(25[0-5]|2[0-4]\\d|1?\\d?\\d)(\\.(25[0-5]|2[0-4]\\d|1?\\d?\\d)){3}");

  Optional<String> raw(String name) {
    String fromFlag = given.get(name);
    if (fromFlag != null) {
      return Optional.of(fromFlag);
    }
    return Optional.ofNullable(env.get(Flags.flag(name).orElseThrow().envName()))
        .filter(s -> !s.isEmpty());
  }

  String source(String name) {
    return given.containsKey(name) ? "--" + name : Flags.flag(name).orElseThrow().envName();
  }

  ConfigException bad(String name, String value, String expectation) {
    return new ConfigException(
        source(name) + ": " + expectation + ", got '" + printable(value) + "'");
  }

  String host() throws ConfigException {
    String value = raw("host").orElse("127.0.0.1");
    boolean ipv6 = value.contains(":") && value.matches("[0-9A-Fa-f:.]+");
    if (!value.equals("localhost") && !IPV4.matcher(value).matches() && !ipv6) {
      throw bad("host", value, "must be an IPv4 or IPv6 address or 'localhost'");
    }
    return value;
  }

  int intValue(String name, int dflt, int min, int max) throws ConfigException {
    Optional<String> value = raw(name);
    if (value.isEmpty()) {
      return dflt;
    }
    try {
      int parsed = Integer.parseInt(value.get().trim());
      if (parsed >= min && parsed <= max) {
        return parsed;
      }
    } catch (NumberFormatException e) {
      // reported below with the accepted range
    }
    throw bad(name, value.get(), "must be an integer from " + min + " to " + max);
  }

  boolean bool(String name, boolean dflt) throws ConfigException {
    Optional<String> value = raw(name);
    if (value.isEmpty()) {
      return dflt;
    }
    switch (value.get().trim().toLowerCase(Locale.ROOT)) {
      case "true", "1", "yes", "on" -> {
        return true;
      }
      case "false", "0", "no", "off" -> {
        return false;
      }
      default -> throw bad(name, value.get(), "must be true or false");
    }
  }

  String oneOf(String name, String dflt, List<String> allowed) throws ConfigException {
    Optional<String> value = raw(name);
    if (value.isEmpty()) {
      return dflt;
    }
    String upper = value.get().trim().toUpperCase(Locale.ROOT);
    if (!allowed.contains(upper)) {
      throw bad(name, value.get(), "must be one of " + String.join(", ", allowed));
    }
    return upper;
  }

  long size(String name, long dflt) throws ConfigException {
    return size(name, dflt, 1, 1L << 40);
  }

  long size(String name, long dflt, long min, long max) throws ConfigException {
    Optional<String> value = raw(name);
    if (value.isEmpty()) {
      return dflt;
    }
    return size(name, value.get().trim().toLowerCase(Locale.ROOT), min, max);
  }

  private long size(String name, String given, long min, long max) throws ConfigException {
    String s = given;
    long unit = 1;
    if (!s.isEmpty() && "kmg".indexOf(s.charAt(s.length() - 1)) >= 0) {
      unit = 1L << (10 * ("kmg".indexOf(s.charAt(s.length() - 1)) + 1));
      s = s.substring(0, s.length() - 1);
    }
    try {
      long n = Long.parseLong(s);
      if (n > 0 && n <= max / unit && n * unit >= min) {
        return n * unit;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    String range = min == 1 && max == 1L << 40 ? "" : " from " + min + " to " + max + " bytes";
    throw bad(
        name,
        raw(name).orElse(given),
        "must be a positive size in bytes, optionally with k, m or g" + range);
  }

  /**
   * A duration from 100 ms to 24 h: a number with {@code ms}, {@code s}, {@code m} or {@code h}.
   */
  Duration duration(String name, Duration dflt) throws ConfigException {
    return duration(name, dflt, Duration.ofMillis(100));
  }

  /** A duration from {@code min} to 24 h. */
  Duration duration(String name, Duration dflt, Duration min) throws ConfigException {
    Optional<String> value = raw(name);
    if (value.isEmpty()) {
      return dflt;
    }
    java.util.regex.Matcher m = DURATION.matcher(value.get().trim().toLowerCase(Locale.ROOT));
    if (m.matches()) {
      long n = Long.parseLong(m.group(1));
      Duration d =
          switch (m.group(2)) {
            case "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            default -> Duration.ofHours(n);
          };
      if (d.compareTo(min) >= 0 && d.compareTo(Duration.ofHours(24)) <= 0) {
        return d;
      }
    }
    throw bad(
        name,
        value.get(),
        "must be a duration from "
            + min.toMillis()
            + "ms to 24h with a unit: ms, s, m or h (for example 30s)");
  }

  FsyncPolicy fsync() throws ConfigException {
    Optional<String> value = raw("fsync");
    if (value.isEmpty()) {
      return FsyncPolicy.REQUEST;
    }
    try {
      return FsyncPolicy.parse(value.get().trim());
    } catch (IllegalArgumentException e) {
      throw bad("fsync", value.get(), e.getMessage());
    }
  }

  /** A retention: a whole number of minutes, hours, days or weeks, at least one minute. */
  Optional<Duration> retention() throws ConfigException {
    Optional<String> value = raw("retention");
    if (value.isEmpty() || value.get().trim().equalsIgnoreCase("off")) {
      return Optional.empty();
    }
    java.util.regex.Matcher m = RETENTION.matcher(value.get().trim().toLowerCase(Locale.ROOT));
    if (m.matches()) {
      long n = Long.parseLong(m.group(1));
      Duration d =
          switch (m.group(2)) {
            case "m" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            case "d" -> Duration.ofDays(n);
            default -> Duration.ofDays(7 * n);
          };
      if (n > 0) {
        return Optional.of(d);
      }
    }
    throw bad(
        "retention",
        value.get(),
        "must be a positive whole number of minutes, hours, days or weeks with its unit m, h, d"
            + " or w (for example 30d), or off");
  }

  OptionalInt otlpPort(int port) throws ConfigException {
    return secondPort("otlp-port", port);
  }

  OptionalInt secondPort(String flag, int port) throws ConfigException {
    Optional<String> value = raw(flag);
    if (value.isEmpty() || value.get().trim().equalsIgnoreCase("off")) {
      return OptionalInt.empty();
    }
    int second = intValue(flag, 0, 0, 65535);
    if (second != 0 && second == port) {
      throw bad(flag, value.get(), "must differ from the port of both APIs (" + port + ")");
    }
    if (second != 0
        && flag.equals("elasticsearch-port")
        && otlpPort(port).equals(OptionalInt.of(second))) {
      throw bad(flag, value.get(), "must differ from --otlp-port");
    }
    return OptionalInt.of(second);
  }

  OptionalLong maxDisk(String name) throws ConfigException {
    Optional<String> value = raw(name);
    if (value.isEmpty() || value.get().trim().equalsIgnoreCase("off")) {
      return OptionalLong.empty();
    }
    String s = value.get().trim().toLowerCase(Locale.ROOT);
    if (s.endsWith("t")) {
      s = s.substring(0, s.length() - 1) + "000g";
    }
    return OptionalLong.of(size(name, s, 1L << 20, 1L << 50));
  }

  List<OutboundPolicy.Cidr> allowOutbound() throws ConfigException {
    Optional<String> value = raw("allow-outbound");
    if (value.isEmpty() || value.get().trim().equalsIgnoreCase("none")) {
      return List.of();
    }
    List<OutboundPolicy.Cidr> out = new ArrayList<>();
    for (String part : value.get().split(",")) {
      if (part.isBlank()) {
        continue;
      }
      try {
        out.add(OutboundPolicy.Cidr.parse(part));
      } catch (IllegalArgumentException e) {
        throw bad(
            "allow-outbound",
            value.get(),
            "must be a comma-separated list of IPv4 or IPv6 ranges such as"
                + " 10.0.0.0/8,fd00::/8 ("
                + e.getMessage()
                + ")");
      }
    }
    return out;
  }

  String lokiTable() throws ConfigException {
    String t = raw("loki-table").map(String::trim).orElse("loki_logs");
    if (!t.matches("[a-z_][a-z0-9_]{0,199}")) {
      throw bad(
          "loki-table",
          t,
          "must be a table name of 1 to 200 lower-case letters, digits and _, not starting with a"
              + " digit");
    }
    return t;
  }

  Optional<String> metricsToken() throws ConfigException {
    Optional<String> t = raw("metrics-token");
    if (t.isPresent() && !t.get().matches("[A-Za-z0-9._~-]{16,256}")) {
      throw new ConfigException(
          "--metrics-token must be 16 to 256 URL-safe characters (letters, digits, . _ ~ -)");
    }
    return t;
  }

  Optional<TlsSpec> tls() throws ConfigException {
    Optional<String> cert = raw("tls-cert").map(String::trim).filter(s -> !s.isEmpty());
    Optional<String> key = raw("tls-key").map(String::trim).filter(s -> !s.isEmpty());
    boolean selfSigned = bool("tls-self-signed", false);
    Duration every = duration("tls-check-every", Duration.ofSeconds(10));
    if (selfSigned && (cert.isPresent() || key.isPresent())) {
      throw new ConfigException(
          source("tls-self-signed")
              + " makes its own certificate: give either it or --tls-cert and --tls-key");
    }
    if (cert.isPresent() != key.isPresent()) {
      throw new ConfigException(
          (cert.isPresent() ? source("tls-cert") : source("tls-key"))
              + " needs "
              + (cert.isPresent() ? "--tls-key" : "--tls-cert")
              + " too: the certificate chain and its private key, both PEM files");
    }
    if (selfSigned) {
      return Optional.of(new TlsSpec(null, null, true, every));
    }
    return cert.map(c -> new TlsSpec(Path.of(c), Path.of(key.get()), false, every));
  }

  Optional<String> frontendUrl() throws ConfigException {
    Optional<String> value = raw("frontend-url");
    if (value.isEmpty()) {
      return value;
    }
    String url = value.get().trim();
    try {
      java.net.URI uri = new java.net.URI(url);
      String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
      if ((scheme.equals("http") || scheme.equals("https"))
          && uri.getHost() != null
          && uri.getRawQuery() == null
          && uri.getRawFragment() == null) {
        return Optional.of(url);
      }
    } catch (java.net.URISyntaxException e) {
      // reported below
    }
    throw bad("frontend-url", value.get(), "must be an http or https URL without query");
  }

  Optional<String> orgId() throws ConfigException {
    Optional<String> value = raw("org-id");
    if (value.isPresent()) {
      try {
        return Optional.of(UUID.fromString(value.get().trim()).toString());
      } catch (IllegalArgumentException e) {
        throw bad("org-id", value.get(), "must be a UUID");
      }
    }
    return value;
  }

  Optional<ApiKeySpec> apiKey() throws ConfigException {
    Optional<String> value = raw("api-key");
    if (value.isEmpty()) {
      return Optional.empty();
    }
    String s = value.get();
    int colon = s.indexOf(':');
    String keyId = colon < 0 ? s : s.substring(0, colon);
    String secret = colon < 0 ? "" : s.substring(colon + 1);
    List<String> problems = new ArrayList<>();
    if (!KEY_ID.matcher(keyId).matches()) {
      problems.add("key id must be 1-64 letters, digits, '_' or '-'");
    }
    if (!SECRET.matcher(secret).matches()) {
      problems.add("secret must be 8-256 printable characters without spaces");
    }
    if (!problems.isEmpty()) {
      throw new ConfigException(
          source("api-key") + ": expected KEYID:SECRET; " + String.join("; ", problems));
    }
    return Optional.of(new ApiKeySpec(keyId, secret));
  }

  private static String printable(String s) {
    String oneLine = s.replaceAll("[\\r\\n\\t]", " ");
    return oneLine.length() > 80 ? oneLine.substring(0, 80) + "..." : oneLine;
  }
}
