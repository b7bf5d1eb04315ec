package dev.chartwell.server.http;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The authentication a route requires. The server parses the {@code Authorization} header (a
 * missing or malformed one is a 401 before any handler runs) and hands well-formed credentials to
 * the verifier, which returns the principal or throws 401 / 403.
 */
public sealed interface Authenticator {

  /**
   * Establishes the principal of a request.
   *
   * @param authorizationHeader the raw {@code Authorization} header, or {@code null}
   * @param client the client's address (the TCP peer), {@code null} when unknown
   * @param limiter counts failed attempts and refuses locked-out clients
   * @return the principal, empty for routes without authentication
   * @throws ApiException 401 when credentials are missing, malformed or wrong; 403 when refused;
   *     429 while the client, or the key id from this client, is locked out after failures
   */
  Optional<Principal> authenticate(
      String authorizationHeader, InetAddress client, FailedAuthLimiter limiter);

  /** No authentication (for example {@code /health}). */
  record None() implements Authenticator {
    @Override
    public Optional<Principal> authenticate(
        String authorizationHeader, InetAddress client, FailedAuthLimiter limiter) {
      return Optional.empty();
    }

    @Override
    public String challenge() {
      return "";
    }
  }

  /** Verifies HTTP Basic credentials. */
  @FunctionalInterface
  interface BasicVerifier {
    /**
     * @param user the user name (an API key id)
     * @param password the password (an API key secret)
     * @param client the client's address, {@code null} when unknown
     * @return the principal
     * @throws ApiException 401 or 403
     */
    Principal verify(String user, String password, InetAddress client);
  }

  /** Verifies HTTP Bearer tokens. */
  @FunctionalInterface
  interface BearerVerifier {
    /**
     * @param token the token
     * @param client the client's address, {@code null} when unknown
     * @return the principal
     * @throws ApiException 401 or 403
     */
    Principal verify(String token, InetAddress client);
  }

  /**
   * HTTP Basic: {@code Authorization: Basic base64(user:password)}.
   *
   * @param verifier checks the credentials
   */
  record Basic(BasicVerifier verifier) implements Authenticator {
    @Override
    public Optional<Principal> authenticate(
        String header, InetAddress client, FailedAuthLimiter limiter) {
      String encoded = credentials(header, "Basic", this);
      String decoded;
      try {
        decoded = new String(Base64.getDecoder().decode(encoded), StandardCharsets.UTF_8);
      } catch (IllegalArgumentException e) {
        throw unauthorized("malformed Basic credentials: not base64", this);
      }
      int colon = decoded.indexOf(':');
      if (colon <= 0) {
        throw unauthorized("malformed Basic credentials: expected key id and secret", this);
      }
      String user = decoded.substring(0, colon);
      String password = decoded.substring(colon + 1);
      return Optional.of(
          limited(limiter, client, user, () -> verifier.verify(user, password, client)));
    }

    @Override
    public String challenge() {
      return "Basic realm=\"chartwell\", charset=\"UTF-8\"";
    }
  }

  /**
   * HTTP Bearer: {@code Authorization: Bearer <token>}.
   *
   * @param verifier checks the token
   */
  record Bearer(BearerVerifier verifier) implements Authenticator {
    @Override
    public Optional<Principal> authenticate(
        String header, InetAddress client, FailedAuthLimiter limiter) {
      String token = credentials(header, "Bearer", this);
      // A wrong token names no service: it counts against the client's address only.
      return Optional.of(limited(limiter, client, null, () -> verifier.verify(token, client)));
    }

    @Override
    public String challenge() {
      return "Bearer realm=\"chartwell\"";
    }
  }

  /**
   * HTTP Bearer or HTTP Basic, chosen by the scheme the {@code Authorization} header names (a
   * missing header, or another scheme, is a 401 challenging both). The chart and search routes take
   * a service token or an organization's API key.
   *
   * @param bearer the Bearer authenticator
   * @param basic the Basic authenticator
   */
  record BearerOrBasic(Bearer bearer, Basic basic) implements Authenticator {
    @Override
    public Optional<Principal> authenticate(
        String header, InetAddress client, FailedAuthLimiter limiter) {
      String scheme = header == null ? "" : header.strip().split(" ", 2)[0];
      if (scheme.equalsIgnoreCase("Basic")) {
        return basic.authenticate(header, client, limiter);
      }
      if (scheme.equalsIgnoreCase("Bearer")) {
        return bearer.authenticate(header, client, limiter);
      }
      throw unauthorized(
          header == null || header.isBlank()
              ? "missing Authorization header (Bearer or Basic expected)"
              : "malformed Authorization header: Bearer or Basic expected",
          this);
    }

    @Override
    public String challenge() {
      return bearer.challenge() + ", " + basic.challenge();
    }
  }

  /**
   * @return the {@code WWW-Authenticate} challenge for this scheme, empty when there is none
   */
  String challenge();

  /**
   * Builds a 401 carrying the scheme's challenge.
   *
   * @param text what is wrong with the credentials
   * @param scheme the route's authenticator
   * @return the exception to throw
   */
  static ApiException unauthorized(String text, Authenticator scheme) {
    return new ApiException(
        ErrorCode.UNAUTHORIZED, text, Map.of("WWW-Authenticate", scheme.challenge()));
  }

  /**
   * Verifies well-formed credentials under the limiter: refused at once (429) while locked out, a
   * 401 counted as a failure, a principal as a success. Other refusals (403: the credentials are
   * right but not allowed here) count as neither.
   */
  private static Principal limited(
      FailedAuthLimiter limiter, InetAddress client, String id, Supplier<Principal> verify) {
    limiter.check(client, id);
    Principal p;
    try {
      p = verify.get();
    } catch (ApiException e) {
      if (e.code() == ErrorCode.UNAUTHORIZED) {
        limiter.failed(client, id);
      }
      throw e;
    }
    limiter.succeeded(client, id);
    return p;
  }

  private static String credentials(String header, String scheme, Authenticator self) {
    if (header == null || header.isBlank()) {
      throw unauthorized("missing Authorization header (" + scheme + " expected)", self);
    }
    String trimmed = header.strip();
    int space = trimmed.indexOf(' ');
    if (space < 0
        || !trimmed
            .substring(0, space)
            .toLowerCase(Locale.ROOT)
            .equals(scheme.toLowerCase(Locale.ROOT))) {
      throw unauthorized("malformed Authorization header: " + scheme + " expected", self);
    }
    String value = trimmed.substring(space + 1).strip();
    if (value.isEmpty() || value.indexOf(' ') >= 0) {
      throw unauthorized("malformed Authorization header: empty or invalid " + scheme, self);
    }
    return value;
  }
}
