package dev.chartwell.server.http;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PushbackInputStream;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeoutException;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;
import org.eclipse.jetty.http.HttpException;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;

/**
 * The rules every request body follows, whatever the route: its {@code Content-Type} must be one
 * the route reads (415 otherwise), its {@code Content-Encoding} identity or gzip (415 otherwise),
 * and its size, declared, read and decoded, within the route's limit (413 otherwise). Reading turns
 * every failure into an {@link ApiException}: a stalled body is a 408, a truncated or malformed one
 * a 400 (gzip problems are named), so that handlers that catch {@link IOException} never mistake
 * them for their own.
 */
final class RequestBody {
  private RequestBody() {}

  /** What the headers say about the body. */
  record Declared(boolean present, boolean gzip) {}

  /**
   * Checks the body headers against the route.
   *
   * @param body the route's body rule
   * @param headers the request headers
   * @param maxBytes the route's body limit
   * @return whether a body is present and whether it is gzip-encoded
   * @throws ApiException 415 for a missing or unaccepted type or encoding, 413 for a declared
   *     length over the limit
   */
  static Declared check(Route.Body body, HttpFields headers, long maxBytes) {
    long length = headers.getLongField(HttpHeader.CONTENT_LENGTH);
    boolean present = length > 0 || headers.contains(HttpHeader.TRANSFER_ENCODING);
    if (!body.reads()) {
      return new Declared(present, false);
    }
    String type = headers.get(HttpHeader.CONTENT_TYPE);
    if (type == null) {
      if (present || body.required()) {
        throw unsupported("a Content-Type header is required: " + accepted(body));
      }
    } else {
      checkType(body, type);
    }
    boolean gzip = encoding(body, headers);
    if (length > maxBytes) {
      throw LimitedInputStream.tooLarge(maxBytes);
    }
    return new Declared(present, gzip);
  }

  private static void checkType(Route.Body body, String header) {
    String[] parts = header.split(";");
    String type = parts[0].strip().toLowerCase(Locale.ROOT);
    if (!body.mediaTypes().contains(type)) {
      throw unsupported(
          "Content-Type must be " + accepted(body) + ", got '" + printable(header) + "'");
    }
    for (int i = 1; i < parts.length; i++) {
      String p = parts[i].strip();
      int eq = p.indexOf('=');
      if (eq > 0 && p.substring(0, eq).strip().equalsIgnoreCase("charset")) {
        String cs = p.substring(eq + 1).strip().replace("\"", "");
        if (!cs.equalsIgnoreCase("utf-8") && !cs.equalsIgnoreCase("utf8")) {
          throw unsupported("charset must be utf-8, got '" + printable(cs) + "'");
        }
      }
    }
  }

  private static boolean encoding(Route.Body body, HttpFields headers) {
    boolean gzip = false;
    int codings = 0;
    for (String v : headers.getValuesList(HttpHeader.CONTENT_ENCODING)) {
      for (String coding : v.split(",")) {
        String c = coding.strip().toLowerCase(Locale.ROOT);
        if (c.isEmpty() || c.equals("identity")) {
          continue;
        }
        codings++;
        if (body.ownEncodings().contains(c)) {
          continue;
        }
        if (!c.equals("gzip") && !c.equals("x-gzip")) {
          throw unsupported(
              "Content-Encoding must be gzip or identity, got '" + printable(coding.strip()) + "'");
        }
        gzip = true;
      }
    }
    if (codings > 1) {
      throw unsupported("Content-Encoding must name one coding (gzip)");
    }
    return gzip;
  }

  private static String accepted(Route.Body body) {
    TreeSet<String> types = new TreeSet<>(body.mediaTypes());
    return types.size() == 1 ? types.first() : "one of " + String.join(", ", types);
  }

  private static ApiException unsupported(String text) {
    return new ApiException(ErrorCode.UNSUPPORTED_MEDIA_TYPE, text);
  }

  private static String printable(String s) {
    String clean = s.replaceAll("[^\\x20-\\x7e]", "?");
    return clean.length() > 60 ? clean.substring(0, 60) + "..." : clean;
  }

  /**
   * The stream handlers read.
   *
   * @param raw the body as received
   * @param gzip whether to decode it
   * @param maxBytes the limit of both the received and the decoded size
   * @param timeoutText how long a stall may last, for the 408 text
   * @param onEnd run once when the received body has been read to its end
   * @return the body stream
   */
  static InputStream open(
      InputStream raw, boolean gzip, long maxBytes, String timeoutText, Runnable onEnd) {
    InputStream received = new LimitedInputStream(new Received(raw, timeoutText, onEnd), maxBytes);
    return gzip ? new LimitedInputStream(new Gunzip(received), maxBytes) : received;
  }

  /** Turns the server's read failures into API errors and reports the end of the body. */
  private static final class Received extends InputStream {
    private final InputStream in;
    private final String timeoutText;
    private Runnable onEnd;

    Received(InputStream in, String timeoutText, Runnable onEnd) {
      this.in = in;
      this.timeoutText = timeoutText;
      this.onEnd = onEnd;
    }

    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) {
      if (len == 0) {
        return 0;
      }
      int n;
      try {
        n = in.read(b, off, len);
      } catch (IOException | RuntimeException e) {
        throw failure(e);
      }
      if (n < 0 && onEnd != null) {
        Runnable r = onEnd;
        onEnd = null;
        r.run();
      }
      return n;
    }

    private ApiException failure(Exception e) {
      if (e instanceof ApiException api) {
        return api;
      }
      for (Throwable t = e; t != null; t = t.getCause()) {
        if (t instanceof TimeoutException) {
          return new ApiException(
              ErrorCode.REQUEST_TIMEOUT,
              "the request body stalled: no bytes arrived for " + timeoutText,
              Map.of("Connection", "close"));
        }
        if (t instanceof HttpException) {
          return ApiException.badRequest("malformed request body (transfer encoding)");
        }
      }
      return ApiException.badRequest("the request body ended before it was complete");
    }
  }

  /** Decodes gzip lazily, so that the first read (not the handler's start) meets its errors. */
  private static final class Gunzip extends InputStream {
    private final InputStream received;
    private InputStream decoded;

    Gunzip(InputStream received) {
      this.received = received;
    }

    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      try {
        if (decoded == null) {
          PushbackInputStream in = new PushbackInputStream(received, 1);
          int first = in.read();
          if (first < 0) {
            decoded = InputStream.nullInputStream(); // an empty body stays empty
          } else {
            in.unread(first);
            decoded = new GZIPInputStream(in, 1 << 16);
          }
        }
        int n = decoded.read(b, off, len);
        if (n < 0) {
          // Whatever follows the gzip trailer is read (within the limit) so the body is consumed.
          received.transferTo(OutputStream.nullOutputStream());
        }
        return n;
      } catch (ZipException e) {
        throw ApiException.badRequest("the gzip request body is malformed: " + reason(e));
      } catch (EOFException e) {
        throw ApiException.badRequest("the gzip request body is truncated");
      }
    }

    private static String reason(ZipException e) {
      String m = e.getMessage() == null ? "" : e.getMessage().toLowerCase(Locale.ROOT);
      if (m.contains("not in gzip format")) {
        return "it does not start with a gzip header";
      }
      if (m.contains("corrupt") || m.contains("crc") || m.contains("size")) {
        return "its checksum or length does not match";
      }
      return "invalid compressed data";
    }
  }
}
