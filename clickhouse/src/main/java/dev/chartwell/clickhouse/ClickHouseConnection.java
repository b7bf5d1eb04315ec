package dev.chartwell.clickhouse;

import java.net.URI;
import java.time.Duration;
import java.util.Objects;

/**
 * Where and as whom to reach a ClickHouse server: a HyperDX-style connection. The password is never
 * part of {@link #toString()} nor of any message this module writes.
 *
 * @param name the connection's name, which every error names
 * @param url the server's HTTP interface, {@code http(s)://host:port/}
 * @param user the user name
 * @param password the password (empty: none)
 * @param timeout how long one query may take, end to end (default {@link #DEFAULT_TIMEOUT})
 */
public record ClickHouseConnection(
    String name, URI url, String user, String password, Duration timeout) {
  /** The timeout of a connection that names none. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

  /** Validates the parts. */
  public ClickHouseConnection {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(url, "url");
    user = user == null || user.isEmpty() ? "default" : user;
    password = password == null ? "" : password;
    timeout = timeout == null ? DEFAULT_TIMEOUT : timeout;
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("timeout must be positive, got " + timeout);
    }
  }

  /**
   * @return the connection without its password
   */
  @Override
  public String toString() {
    return "ClickHouseConnection[" + name + ", " + url + ", user " + user + ", " + timeout + "]";
  }
}
