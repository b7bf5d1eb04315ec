package dev.chartwell.server.http;

/**
 * Who made a request, as established by a route's {@link Authenticator}. Each API defines its own
 * principal type (an API key of an organization, a service token).
 */
public interface Principal {
  /**
   * @return a short description for logs, never a secret
   */
  String describe();
}
