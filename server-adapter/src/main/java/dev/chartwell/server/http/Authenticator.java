package dev.chartwell.server.http;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
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
      String[] pair = pair(credentials(header, "Basic", this), "Basic", "key id and secret", this);
      String user = pair[0];
      String password = pair[1];
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
   * A service's token, in any of three forms, each checked the same way:
   *
   * <ul>
   *   <li>{@code Authorization: Bearer <token>};
   *   <li>{@code Authorization: Basic base64(serviceId:token)} (clients that can only send Basic:
   *       Prometheus, promtool, Grafana, Elasticsearch clients);
   *   <li>{@code Authorization: ApiKey base64(serviceId:token)} (Elasticsearch's id:api_key form).
   * </ul>
   *
   * <p>In the two forms that name the service, the service the token belongs to must be the one
   * named (401 otherwise), and failures count against the client's address and the named id.
   *
   * <p>With {@code apiKeys} (the chart, search and table reads), a Basic user name is first looked
   * up as a service of this server: if there is one with that id, the credentials are the service
   * form; otherwise they are an API key id and secret (with {@code X-Service-Id}). Each form checks
   * its password only against its own store, so a user name read the wrong way can only fail, never
   * admit.
   *
   * @param bearer verifies a token alone
   * @param named verifies a service id and its token together
   * @param isServiceId whether a Basic user name is the id of a service of this server
   * @param apiKeys the API key authenticator, {@code null} where API keys are not accepted
   */
  record ServiceToken(
      Bearer bearer, BasicVerifier named, Predicate<String> isServiceId, Basic apiKeys)
      implements Authenticator {
    @Override
    public Optional<Principal> authenticate(
        String header, InetAddress client, FailedAuthLimiter limiter) {
      String scheme = header == null ? "" : header.strip().split(" ", 2)[0];
      if (scheme.equalsIgnoreCase("Bearer")) {
        return bearer.authenticate(header, client, limiter);
      }
      if (scheme.equalsIgnoreCase("Basic") || scheme.equalsIgnoreCase("ApiKey")) {
        String[] idAndToken =
            pair(credentials(header, scheme, this), scheme, "service id and token", this);
        if (scheme.equalsIgnoreCase("Basic")
            && apiKeys != null
            && !isServiceId.test(idAndToken[0])) {
          return apiKeys.authenticate(header, client, limiter);
        }
        String id = idAndToken[0];
        String token = idAndToken[1];
        return Optional.of(limited(limiter, client, id, () -> named.verify(id, token, client)));
      }
      throw unauthorized(
          header == null || header.isBlank()
              ? "missing Authorization header (Bearer, Basic or ApiKey expected)"
              : "malformed Authorization header: Bearer, Basic or ApiKey expected",
          this);
    }

    @Override
    public String challenge() {
      return CHALLENGE;
    }

    /** The challenge of the routes that take a service's token. */
    public static final String CHALLENGE =
        "Bearer realm=\"chartwell\", Basic realm=\"chartwell\", charset=\"UTF-8\"";
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

  /** Decodes {@code base64(user:password)}: 401 when not base64 or without a user name. */
  private static String[] pair(String encoded, String scheme, String expected, Authenticator self) {
    String decoded;
    try {
      decoded = new String(Base64.getDecoder().decode(encoded), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw unauthorized("malformed " + scheme + " credentials: not base64", self);
    }
    int colon = decoded.indexOf(':');
    if (colon <= 0) {
      throw unauthorized("malformed " + scheme + " credentials: expected " + expected, self);
    }
    return new String[] {decoded.substring(0, colon), decoded.substring(colon + 1)};
  }
}
