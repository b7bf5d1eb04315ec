package dev.chartwell.server.http;

import java.nio.ByteBuffer;
import java.util.UUID;
import java.util.function.IntSupplier;
import java.util.regex.Pattern;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * On a TLS port, answers a request that arrived in plain HTTP with a 400 envelope naming the https
 * URL to use, and closes the connection; requests over TLS go on to the routes.
 */
final class PlainHttpRefusal extends Handler.Wrapper {
  private static final Pattern HOST = Pattern.compile("[A-Za-z0-9.-]{1,253}|\\[[0-9A-Fa-f:.]+\\]");

  private final Json json;
  private final IntSupplier port;

  PlainHttpRefusal(Handler next, Json json, IntSupplier port) {
    super(next);
    this.json = json;
    this.port = port;
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    if (request.isSecure()) {
      return super.handle(request, response, callback);
    }
    String host = request.getHttpURI().getHost();
    if (host == null || !HOST.matcher(host).matches()) {
      host = "localhost"; // never echo what a client sent unless it is a plain host name
    } else if (host.indexOf(':') >= 0 && !host.startsWith("[")) {
      host = "[" + host + "]";
    }
    String requestId = UUID.randomUUID().toString();
    byte[] body =
        JsonErrorHandler.envelope(
            json.mapper(),
            400,
            ErrorCode.BAD_REQUEST,
            "this port speaks HTTPS: use https://" + host + ":" + port.getAsInt() + "/",
            requestId);
    response.setStatus(400);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, JsonErrorHandler.JSON_TYPE);
    response.getHeaders().put("X-Request-Id", requestId);
    response.getHeaders().put(HttpHeader.CONNECTION, "close");
    response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
    response.write(true, ByteBuffer.wrap(body), callback);
    return true;
  }
}
