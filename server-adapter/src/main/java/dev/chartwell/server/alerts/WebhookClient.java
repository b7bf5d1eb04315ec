package dev.chartwell.server.alerts;

import dev.chartwell.server.security.OutboundPolicy;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;

/**
 * Sends one webhook request: an HTTP/1.1 POST over a socket this class connects itself, so that the
 * address checked is the address used. The host is resolved once at each attempt, through the
 * {@link OutboundPolicy}: every address it resolves to must be allowed, or nothing is sent.
 * Redirects are never followed (a 3xx is a failure), so no redirect can lead elsewhere. The whole
 * exchange (resolving aside), from connecting to the status line and headers of the answer, must
 * finish within the timeout; the answer's body is not read.
 */
final class WebhookClient {
  /**
   * What became of one attempt.
   *
   * @param delivered whether the receiver answered 2xx
   * @param retryable whether another attempt may succeed (a timeout, a connection error, 429, 5xx)
   * @param statusCode the receiver's status, or 0 when it gave none
   * @param error what went wrong, in our words, or {@code null}
   */
  record Outcome(boolean delivered, boolean retryable, int statusCode, String error) {}

  private static final int MAX_HEAD_BYTES = 64 * 1024;

  private final Duration timeout;
  private final OutboundPolicy policy;

  WebhookClient(Duration timeout, OutboundPolicy policy) {
    this.timeout = timeout;
    this.policy = policy;
  }

  /**
   * @param r the request
   * @return the outcome (never throws for network trouble)
   */
  Outcome post(WebhookRequests.Request r) {
    URI uri = r.uri();
    boolean tls = "https".equalsIgnoreCase(uri.getScheme());
    String host = uri.getHost();
    if (host == null) {
      return failed(false, "the webhook URL has no host");
    }
    String bare = host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
    int port = uri.getPort() > 0 ? uri.getPort() : tls ? 443 : 80;
    InetAddress[] addresses;
    try {
      addresses = policy.resolve(bare);
    } catch (UnknownHostException e) {
      return failed(true, "cannot resolve " + bare);
    } catch (OutboundPolicy.RefusedException e) {
      return failed(false, e.getMessage());
    }
    long deadline = System.nanoTime() + timeout.toNanos();
    try (Socket socket = connect(addresses, port, deadline)) {
      Socket s = tls ? tls(socket, bare, port, deadline) : socket;
      OutputStream out = s.getOutputStream();
      out.write(head(r, uri, host, port, tls));
      out.write(r.body());
      out.flush();
      int status = status(s, deadline);
      if (status >= 200 && status < 300) {
        return new Outcome(true, false, status, null);
      }
      boolean retry = status == 429 || status >= 500;
      String error =
          status >= 300 && status < 400
              ? "the receiver answered " + status + "; redirects are not followed"
              : "the receiver answered " + status;
      return new Outcome(false, retry, status, error);
    } catch (SocketTimeoutException e) {
      return failed(true, "no answer within " + timeout.toMillis() + " ms");
    } catch (IOException e) {
      return failed(true, "cannot deliver to " + bare + ":" + port + ": " + e.getMessage());
    }
  }

  private static Outcome failed(boolean retryable, String error) {
    return new Outcome(false, retryable, 0, error);
  }

  private static Socket connect(InetAddress[] addresses, int port, long deadline)
      throws IOException {
    IOException last = new IOException("no address");
    for (InetAddress a : addresses) {
      Socket s = new Socket();
      try {
        s.connect(new InetSocketAddress(a, port), remaining(deadline));
        s.setTcpNoDelay(true);
        s.setSoTimeout(remaining(deadline));
        return s;
      } catch (IOException e) {
        s.close();
        last = e;
        if (e instanceof SocketTimeoutException) {
          throw e;
        }
      }
    }
    throw last;
  }

  private static Socket tls(Socket plain, String host, int port, long deadline) throws IOException {
    SSLSocket s =
        (SSLSocket)
            ((SSLSocketFactory) SSLSocketFactory.getDefault())
                .createSocket(plain, host, port, true);
    SSLParameters params = s.getSSLParameters();
    params.setEndpointIdentificationAlgorithm("HTTPS");
    if (!host.contains(":") && !host.matches("[0-9.]+")) {
      params.setServerNames(List.of(new SNIHostName(host)));
    }
    s.setSSLParameters(params);
    s.setSoTimeout(remaining(deadline));
    s.startHandshake();
    return s;
  }

  private static byte[] head(
      WebhookRequests.Request r, URI uri, String host, int port, boolean tls) {
    String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
    if (uri.getRawQuery() != null) {
      path += "?" + uri.getRawQuery();
    }
    StringBuilder sb = new StringBuilder();
    sb.append("POST ").append(path).append(" HTTP/1.1\r\n");
    sb.append("Host: ").append(host);
    if (port != (tls ? 443 : 80)) {
      sb.append(':').append(port);
    }
    sb.append("\r\n");
    for (Map.Entry<String, String> h : r.headers().entrySet()) {
      if (safe(h.getKey()) && safe(h.getValue())) {
        sb.append(h.getKey()).append(": ").append(h.getValue()).append("\r\n");
      }
    }
    sb.append("Content-Length: ").append(r.body().length).append("\r\n");
    sb.append("Connection: close\r\n\r\n");
    return sb.toString().getBytes(StandardCharsets.UTF_8);
  }

  private static boolean safe(String s) {
    return s.chars().allMatch(c -> c == '\t' || (c >= 0x20 && c != 0x7f));
  }

  /** Reads the status line and headers of the answer (skipping 1xx answers). */
  private static int status(Socket s, long deadline) throws IOException {
    InputStream in = new BufferedInputStream(s.getInputStream(), 4096);
    int[] read = new int[1];
    while (true) {
      String line = line(s, in, deadline, read);
      String[] parts = line.split(" ", 3);
      if (parts.length < 2 || !parts[0].toUpperCase(Locale.ROOT).startsWith("HTTP/1.")) {
        throw new IOException("the receiver did not answer HTTP/1.x");
      }
      int status;
      try {
        status = Integer.parseInt(parts[1]);
      } catch (NumberFormatException e) {
        throw new IOException("the receiver's status line is malformed");
      }
      while (!line(s, in, deadline, read).isEmpty()) {
        // headers: nothing in them changes the outcome
      }
      if (status >= 200 || status < 100) {
        return status;
      }
    }
  }

  private static String line(Socket s, InputStream in, long deadline, int[] read)
      throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    while (true) {
      s.setSoTimeout(remaining(deadline));
      int c = in.read();
      if (c < 0) {
        throw new IOException("the receiver closed the connection before answering");
      }
      if (++read[0] > MAX_HEAD_BYTES) {
        throw new IOException("the receiver's answer has more than 64 KiB of headers");
      }
      if (c == '\n') {
        String text = b.toString(StandardCharsets.ISO_8859_1);
        return text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
      }
      b.write(c);
    }
  }

  private static int remaining(long deadline) throws SocketTimeoutException {
    long ms = (deadline - System.nanoTime()) / 1_000_000;
    if (ms <= 0) {
      throw new SocketTimeoutException("deadline passed");
    }
    return (int) Math.min(Integer.MAX_VALUE, ms);
  }
}
