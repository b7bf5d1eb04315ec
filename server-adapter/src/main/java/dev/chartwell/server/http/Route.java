package dev.chartwell.server.http;

/**
 * One endpoint: method, path pattern, the authentication it needs, its body-size limit and its
 * handler.
 *
 * @param method HTTP method, upper case
 * @param path the path pattern
 * @param auth the required authentication
 * @param maxBodyBytes the largest request body accepted (413 beyond)
 * @param handler the handler
 */
public record Route(
    String method, PathPattern path, Authenticator auth, long maxBodyBytes, Handler handler) {}
