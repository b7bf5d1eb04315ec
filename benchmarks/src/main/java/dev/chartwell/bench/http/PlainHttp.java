package dev.chartwell.bench.http;

import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The harness's HTTP/1.1 client: {@code POST}s and {@code GET}s on one keep-alive connection, for
 * both systems alike. The bench runs on the machine it measures, so the client's own cost is part
 * of every figure:
 *
 * <ul>
 *   <li>loads send parts of a file with the bytes going from the page cache to the socket by the
 *       kernel ({@link FileChannel#transferTo}, sendfile on Linux), without passing through the
 *       JVM: a client library copying each gigabyte took about 2 us of the shared cores per event;
 *   <li>queries write the request and read the answer on the calling thread: the JDK's {@code
 *       HttpClient} hands each exchange between threads and added about half a millisecond to every
 *       query, as much as Chartwell's engine takes for Q4.
 * </ul>
 *
 * <p>It speaks just enough HTTP/1.1 for that: a request with {@code Content-Length}, an answer with
 * {@code Content-Length}, {@code Transfer-Encoding: chunked} or closing the connection. Not
 * thread-safe: one per connection.
 */
final class PlainHttp implements Closeable {
  private final String host;
  private final int port;
  private SocketChannel channel;
  private final ByteBuffer in = ByteBuffer.allocate(64 * 1024).flip();

  /**
   * An answer.
   *
   * @param status its status code
   * @param headers its headers, names in lower case (the last of repeated ones)
   * @param body its body as received
   */
  record Answer(int status, Map<String, String> headers, byte[] body) {
    /**
     * @return the body as UTF-8 text
     */
    String text() {
      return new String(body, StandardCharsets.UTF_8);
    }
  }

  /**
   * @param uri any URI of the server (only its host and port are used)
   */
  PlainHttp(URI uri) {
    this.host = uri.getHost();
    this.port = uri.getPort() < 0 ? 80 : uri.getPort();
  }

  /**
   * Sends {@code length} bytes of a file from {@code from} as the body of a {@code POST}.
   *
   * @param pathAndQuery the request target, e.g. {@code /api/v2/sources/s/events}
   * @param headers extra headers
   * @param file the file
   * @param from where the body starts in it
   * @param length the body's length
   * @return the answer
   */
  Answer post(
      String pathAndQuery, Map<String, String> headers, FileChannel file, long from, long length)
      throws IOException {
    writeHead(pathAndQuery, headers, length);
    long sent = 0;
    while (sent < length) {
      long n = file.transferTo(from + sent, length - sent, channel);
      if (n <= 0 && file.size() < from + length) {
        throw new EOFException("the file ends before byte " + (from + length));
      }
      sent += n;
    }
    return answer();
  }

  /**
   * Sends a {@code POST} with a body from memory.
   *
   * @param pathAndQuery the request target
   * @param headers extra headers
   * @param body the body
   * @return the answer
   */
  Answer post(String pathAndQuery, Map<String, String> headers, byte[] body) throws IOException {
    return exchange(head("POST", pathAndQuery, headers, body.length), body);
  }

  /**
   * Sends a {@code GET}.
   *
   * @param pathAndQuery the request target
   * @return the answer
   */
  Answer get(String pathAndQuery) throws IOException {
    return exchange(head("GET", pathAndQuery, Map.of(), -1), new byte[0]);
  }

  private Answer exchange(ByteBuffer head, byte[] body) throws IOException {
    boolean reused = channel != null && channel.isOpen();
    try {
      // head and body in one write: a body sent after its head would arrive in a second packet,
      // and the server's time to read the request would include the wait for it
      ByteBuffer b = ByteBuffer.wrap(body);
      ByteBuffer[] request = {head, b};
      connect();
      while (head.hasRemaining() || b.hasRemaining()) {
        channel.write(request);
      }
      return answer();
    } catch (IOException e) {
      close();
      if (!reused) {
        throw e;
      }
      // the server closed the idle connection meanwhile: once more on a new one
      head.rewind();
      return exchange(head, body);
    }
  }

  private void writeHead(String pathAndQuery, Map<String, String> headers, long length)
      throws IOException {
    ByteBuffer h = head("POST", pathAndQuery, headers, length);
    connect();
    while (h.hasRemaining()) {
      channel.write(h);
    }
  }

  private void connect() throws IOException {
    if (channel == null || !channel.isOpen()) {
      channel = SocketChannel.open(new InetSocketAddress(host, port));
      channel.socket().setTcpNoDelay(true);
      in.clear().flip();
    }
  }

  /** A request's head; {@code length} below 0 for a request without a body. */
  private ByteBuffer head(
      String method, String pathAndQuery, Map<String, String> headers, long length) {
    StringBuilder head = new StringBuilder();
    head.append(method).append(' ').append(pathAndQuery).append(" HTTP/1.1\r\n");
    head.append("Host: ").append(host).append(':').append(port).append("\r\n");
    if (length >= 0) {
      head.append("Content-Length: ").append(length).append("\r\n");
    }
    headers.forEach((k, v) -> head.append(k).append(": ").append(v).append("\r\n"));
    head.append("\r\n");
    return ByteBuffer.wrap(head.toString().getBytes(StandardCharsets.ISO_8859_1));
  }

  private Answer answer() throws IOException {
    String status = line();
    String[] parts = status.split(" ", 3);
    if (parts.length < 2 || !parts[0].startsWith("HTTP/1.")) {
      throw new IOException("not an HTTP answer: " + status);
    }
    int code = Integer.parseInt(parts[1]);
    long contentLength = -1;
    boolean chunked = false;
    boolean close = parts[0].equals("HTTP/1.0");
    Map<String, String> headers = new HashMap<>();
    for (String header = line(); !header.isEmpty(); header = line()) {
      int colon = header.indexOf(':');
      String name = header.substring(0, Math.max(0, colon)).trim().toLowerCase(Locale.ROOT);
      String value = header.substring(colon + 1).trim();
      headers.put(name, value);
      switch (name) {
        case "content-length" -> contentLength = Long.parseLong(value);
        case "transfer-encoding" -> chunked = value.toLowerCase(Locale.ROOT).contains("chunked");
        case "connection" -> close = value.equalsIgnoreCase("close");
        default -> {}
      }
    }
    if (!chunked && contentLength >= 0) {
      byte[] body = readExactly(contentLength);
      if (close) {
        close();
      }
      return new Answer(code, headers, body);
    }
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    if (chunked) {
      for (long size = Long.parseLong(line().split(";")[0].trim(), 16);
          size > 0;
          size = Long.parseLong(line().split(";")[0].trim(), 16)) {
        read(body, size);
        line(); // the CRLF after the chunk
      }
      while (!line().isEmpty()) {} // trailers
    } else {
      close = true;
      while (fill()) {
        body.write(in.array(), in.position(), in.remaining());
        in.position(in.limit());
      }
    }
    if (close) {
      close();
    }
    return new Answer(code, headers, body.toByteArray());
  }

  /**
   * A body of known length, read into its own array: what is buffered first, then the rest straight
   * from the socket (no buffer that grows and is copied again, as large answers would need).
   */
  private byte[] readExactly(long length) throws IOException {
    if (length > Integer.MAX_VALUE - 8) {
      throw new IOException("an answer of " + length + " bytes is too large to hold");
    }
    byte[] body = new byte[(int) length];
    int buffered = (int) Math.min(length, in.remaining());
    in.get(body, 0, buffered);
    ByteBuffer rest = ByteBuffer.wrap(body, buffered, body.length - buffered);
    while (rest.hasRemaining()) {
      if (channel.read(rest) < 0) {
        throw new EOFException("the answer ended early");
      }
    }
    return body;
  }

  private void read(ByteArrayOutputStream out, long count) throws IOException {
    while (count > 0) {
      if (!in.hasRemaining() && !fill()) {
        throw new EOFException("the answer ended early");
      }
      int n = (int) Math.min(count, in.remaining());
      out.write(in.array(), in.position(), n);
      in.position(in.position() + n);
      count -= n;
    }
  }

  /** A line of the answer's head, without its CRLF. */
  private String line() throws IOException {
    StringBuilder line = new StringBuilder();
    while (true) {
      if (!in.hasRemaining() && !fill()) {
        throw new EOFException("the answer ended early");
      }
      char c = (char) (in.get() & 0xFF);
      if (c == '\n') {
        int end = line.length();
        return end > 0 && line.charAt(end - 1) == '\r'
            ? line.substring(0, end - 1)
            : line.toString();
      }
      line.append(c);
    }
  }

  /** Reads more of the answer; false at its end. */
  private boolean fill() throws IOException {
    in.compact();
    int n = channel.read(in);
    in.flip();
    return n > 0;
  }

  @Override
  public void close() throws IOException {
    if (channel != null) {
      channel.close();
      channel = null;
    }
  }
}
