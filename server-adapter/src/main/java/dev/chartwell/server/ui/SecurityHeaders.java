package dev.chartwell.server.ui;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The headers every answer of the web UI carries, so that a browser runs nothing but the UI's own
 * files and never shows it inside another site's page:
 *
 * <ul>
 *   <li>{@code Content-Security-Policy}: scripts, styles, requests and everything else only from
 *       the server's own origin; no inline script, no inline style (the UI has neither: its styles
 *       are in {@code style.css} and uPlot's {@code uPlot.min.css}, and its scripts set styles only
 *       through the CSSOM, which the policy allows), no plugins, no {@code <base>}, forms posted
 *       only here, and no framing. {@code img-src} also allows {@code data:}: the page's empty
 *       favicon is {@code data:,}, which keeps the browser from asking for {@code /favicon.ico}.
 *   <li>{@code X-Frame-Options: DENY}: {@code frame-ancestors 'none'} for browsers that do not know
 *       it.
 *   <li>{@code Referrer-Policy: no-referrer}: a UI URL names services, dashboards and searches.
 *   <li>{@code X-Content-Type-Options: nosniff}: every file is only what its type says.
 *   <li>{@code Strict-Transport-Security} when the request came over TLS to a host name that is not
 *       loopback (see {@link #hsts(boolean, String)}).
 * </ul>
 */
final class SecurityHeaders {
  /** The UI's content security policy. */
  static final String CONTENT_SECURITY_POLICY =
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
          + " connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self';"
          + " frame-ancestors 'none'";

  /** One year, as browsers' preload lists expect; no {@code includeSubDomains}. */
  static final String STRICT_TRANSPORT_SECURITY = "max-age=31536000";

  private static final Pattern IPV4 = Pattern.compile("[0-9]{1,3}(\\.[0-9]{1,3}){3}");

  private SecurityHeaders() {}

  /**
   * @param secure whether the request arrived over TLS
   * @param host the host the request was sent to (its {@code Host} header or HTTP/2 authority, with
   *     or without a port), or {@code null}
   * @return the headers, in the order they are sent
   */
  static Map<String, String> forUi(boolean secure, String host) {
    Map<String, String> h = new LinkedHashMap<>();
    h.put("Content-Security-Policy", CONTENT_SECURITY_POLICY);
    h.put("X-Frame-Options", "DENY");
    h.put("Referrer-Policy", "no-referrer");
    h.put("X-Content-Type-Options", "nosniff");
    if (hsts(secure, host)) {
      h.put("Strict-Transport-Security", STRICT_TRANSPORT_SECURITY);
    }
    return h;
  }

  /**
   * Whether to send {@code Strict-Transport-Security}: only over TLS (a browser ignores it on plain
   * HTTP, and it would make no sense there), and only to a host that is not loopback. A browser
   * keeps the rule for the host name, every port of it, for a year: sent for {@code localhost} it
   * would make the browser refuse plain HTTP to every other local development server. No name is
   * looked up: a name is loopback when it is {@code localhost} or ends with {@code .localhost} (RFC
   * 6761), an address literal when it is in 127.0.0.0/8, {@code ::1} (also written inside IPv6) or
   * unspecified ({@code 0.0.0.0}, {@code ::}).
   *
   * @param secure whether the request arrived over TLS
   * @param host the request's host, with or without a port, or {@code null}
   * @return whether to send the header
   */
  static boolean hsts(boolean secure, String host) {
    if (!secure || host == null) {
      return false;
    }
    String name = hostName(host);
    return !name.isEmpty() && !isLoopback(name);
  }

  /** The host without its port, brackets or trailing dot, lower case. */
  static String hostName(String host) {
    String h = host.strip().toLowerCase(Locale.ROOT);
    if (h.startsWith("[")) {
      int close = h.indexOf(']');
      h = close < 0 ? h.substring(1) : h.substring(1, close);
    } else if (h.indexOf(':') == h.lastIndexOf(':') && h.indexOf(':') >= 0) {
      h = h.substring(0, h.indexOf(':')); // name:port; more than one colon is a bare IPv6 literal
    }
    while (h.endsWith(".")) {
      h = h.substring(0, h.length() - 1);
    }
    return h;
  }

  private static boolean isLoopback(String name) {
    if (name.equals("localhost") || name.endsWith(".localhost")) {
      return true;
    }
    if (IPV4.matcher(name).matches()) {
      return Integer.parseInt(name.substring(0, name.indexOf('.'))) == 127
          || name.matches("0+\\.0+\\.0+\\.0+");
    }
    if (name.indexOf(':') < 0) {
      return false; // a host name: never looked up
    }
    try {
      // In brackets, the JDK only parses an IPv6 literal and never looks the text up.
      InetAddress a = InetAddress.getByName("[" + name + "]");
      return a.isLoopbackAddress() || a.isAnyLocalAddress();
    } catch (UnknownHostException | SecurityException e) {
      return false; // not an address; no browser keeps HSTS for it anyway
    }
  }
}
