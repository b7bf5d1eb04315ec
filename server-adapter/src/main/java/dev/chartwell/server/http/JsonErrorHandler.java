package dev.chartwell.server.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Answers the requests the server refuses before any route sees them (a malformed request line or
 * URI, a bad {@code Content-Length}, headers too large, an unsupported HTTP version, a request
 * during shutdown) with the same error envelope as every other error: {@code
 * {"status","error","requestId"}} and an {@code X-Request-Id} header, never an HTML page, a stack
 * trace or a class name.
 */
final class JsonErrorHandler extends ErrorHandler {
  static final String JSON_TYPE = "application/json; charset=utf-8";

  /** Details from the HTTP layer that are shown: plain words, no class or package names. */
  private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9 :,'()-]{1,80}");

  private final ObjectMapper mapper;
  private final PrintStream log;
  private final int maxHeaderBytes;

  /**
   * @param mapper writes the envelope
   * @param log where unexpected server errors are logged
   * @param maxHeaderBytes the request line and header limit, named in 414 and 431 texts
   */
  JsonErrorHandler(ObjectMapper mapper, PrintStream log, int maxHeaderBytes) {
    this.mapper = mapper;
    this.log = log;
    this.maxHeaderBytes = maxHeaderBytes;
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) {
    int status = response.getStatus();
    Object attr = request.getAttribute(ERROR_STATUS);
    if (attr instanceof Integer s) {
      status = s;
    }
    if (status < 400) {
      status = 500;
    }
    Object message = request.getAttribute(ERROR_MESSAGE);
    Object cause = request.getAttribute(ERROR_EXCEPTION);
    String requestId = UUID.randomUUID().toString();
    if (status >= 500 && status != 503 && cause instanceof Throwable t) {
      log.println("request " + requestId + " failed in the HTTP layer: " + t);
    }
    // HTTP/2 without TLS is answered "426 Upgrade Required"; this server speaks HTTP/1.1 only.
    ErrorCode code = ErrorCode.forStatus(status == 426 ? 505 : status);
    status = code.status(); // a status without its own code becomes 400 or 500
    byte[] body = envelope(mapper, status, code, text(status, message), requestId);
    response.setStatus(status);
    HttpFields.Mutable headers = response.getHeaders();
    headers.put(HttpHeader.CONTENT_TYPE, JSON_TYPE);
    headers.put("X-Request-Id", requestId);
    headers.put(HttpHeader.CACHE_CONTROL, "no-store");
    response.write(true, ByteBuffer.wrap(body), callback);
    return true;
  }

  @Override
  public ByteBuffer badMessageError(int status, String reason, HttpFields.Mutable fields) {
    String requestId = UUID.randomUUID().toString();
    fields.put(HttpHeader.CONTENT_TYPE, JSON_TYPE);
    fields.put("X-Request-Id", requestId);
    ErrorCode code = ErrorCode.forStatus(status);
    return ByteBuffer.wrap(envelope(mapper, status, code, text(code.status(), reason), requestId));
  }

  /** Jetty's reason for refusing a request, said the way this API says things; "" for none. */
  private static String ourWords(String reason) {
    String r = reason.toLowerCase(Locale.ROOT);
    if (r.contains("utf-8") || r.contains("utf8")) {
      return "the path is not valid percent-encoded UTF-8";
    }
    if (r.contains("ambiguous uri path separator")) {
      return "an encoded '/' (%2F) in the path is not allowed";
    }
    if (r.contains("ambiguous")) {
      return "ambiguous path segments ('..', '%2E', empty or encoded) are not allowed";
    }
    if (r.contains("no host")) {
      return "an HTTP/1.1 request needs a Host header";
    }
    if (r.contains("transfer-encoding and content-length")) {
      return "a request cannot have both Transfer-Encoding and Content-Length";
    }
    if (r.contains("multiple content-length") || r.contains("duplicate content-length")) {
      return "more than one Content-Length header";
    }
    if (r.contains("content-length")) {
      return "invalid Content-Length header (a non-negative decimal number is expected)";
    }
    if (r.contains("transfer-encoding") || r.contains("chunk")) {
      return "unsupported or malformed Transfer-Encoding (only chunked is accepted)";
    }
    if (r.contains("no uri") || r.contains("bad uri")) {
      return "missing or malformed request URI";
    }
    if (r.contains("illegal character") || r.contains("bad character")) {
      return "illegal character in the request line or headers";
    }
    boolean plain =
        PLAIN.matcher(reason).matches()
            && !r.contains("exception")
            && !r.equals("bad request")
            && !r.matches("\\d+");
    return plain ? reason : "";
  }

  /**
   * @return the error envelope {@code {"status","error","requestId"}} as UTF-8 JSON
   */
  static byte[] envelope(
      ObjectMapper mapper, int status, ErrorCode code, String text, String requestId) {
    Map<String, Object> envelope = new LinkedHashMap<>();
    envelope.put("status", status);
    envelope.put("error", code.name() + ": " + text);
    envelope.put("requestId", requestId);
    try {
      return mapper.writeValueAsBytes(envelope);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write an error envelope", e);
    }
  }

  private String text(int status, Object message) {
    String detail = ourWords(message instanceof String m ? m.strip() : "");
    boolean plain = !detail.isEmpty();
    return switch (status) {
      case 400 -> "malformed HTTP request" + (plain ? ": " + detail : "");
      case 408 -> "the request was not received in time";
      case 413 -> "the request is larger than the server accepts";
      case 414 ->
          "the request line is longer than the server accepts (" + maxHeaderBytes + " bytes)";
      case 417 -> "the Expect header is not supported";
      case 431 ->
          "the request line and headers are larger than the server accepts ("
              + maxHeaderBytes
              + " bytes)";
      case 501 -> "not supported by this server" + (plain ? ": " + detail : "");
      case 503 -> "the server is shutting down or overloaded; retry later";
      case 505 -> "unsupported HTTP version; use HTTP/1.1";
      default ->
          status < 500
              ? "the request cannot be served" + (plain ? ": " + detail : "")
              : "unexpected server error";
    };
  }
}
