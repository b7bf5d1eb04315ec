package dev.chartwell.server.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** Sends exact bytes to a loopback server and reads one HTTP/1.1 response. */
public final class RawHttp {
  private RawHttp() {}

  /**
   * One response.
   *
   * @param status the status code
   * @param headers header values by lower-case name (the last of repeated headers)
   * @param body the body text
   */
  public record Reply(int status, Map<String, String> headers, String body) {
    /**
     * @param name a header name, any case
     * @return its value or {@code null}
     */
    public String header(String name) {
      return headers.get(name.toLowerCase(Locale.ROOT));
    }
  }

  /**
   * @param port the server's loopback port
   * @param request the request bytes, sent as they are
   * @return the response
   */
  public static Reply send(int port, byte[] request) throws IOException {
    try (Socket s = new Socket("127.0.0.1", port)) {
      s.setSoTimeout(15_000);
      s.getOutputStream().write(request);
      s.getOutputStream().flush();
      return read(s.getInputStream());
    }
  }

  /**
   * @param port the server's loopback port
   * @param request the request text, sent as ISO-8859-1 bytes
   * @return the response
   */
  public static Reply send(int port, String request) throws IOException {
    return send(port, request.getBytes(StandardCharsets.ISO_8859_1));
  }

  /**
   * Reads one response: status line, headers and a body of {@code Content-Length} bytes, or up to
   * the end of the stream when there is no length.
   *
   * @param in the connection's input
   * @return the response
   */
  public static Reply read(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int matched = 0;
    while (matched < 4) {
      int b = in.read();
      if (b < 0) {
        throw new IOException("connection closed after " + head.size() + " bytes: " + head);
      }
      head.write(b);
      matched = (b == (matched % 2 == 0 ? '\r' : '\n')) ? matched + 1 : (b == '\r' ? 1 : 0);
    }
    String[] lines = head.toString(StandardCharsets.ISO_8859_1).split("\r\n");
    int status = Integer.parseInt(lines[0].split(" ")[1]);
    Map<String, String> headers = new LinkedHashMap<>();
    for (int i = 1; i < lines.length; i++) {
      int colon = lines[i].indexOf(':');
      if (colon > 0) {
        headers.put(
            lines[i].substring(0, colon).strip().toLowerCase(Locale.ROOT),
            lines[i].substring(colon + 1).strip());
      }
    }
    String length = headers.get("content-length");
    byte[] body = length != null ? in.readNBytes(Integer.parseInt(length)) : in.readAllBytes();
    return new Reply(status, headers, new String(body, StandardCharsets.UTF_8));
  }
}
