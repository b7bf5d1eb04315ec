package dev.chartwell.server.security;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The one outbound address policy: which addresses the server may connect to when it makes a
 * request on a user's behalf (webhook deliveries and tests, ClickHouse connections: creating a
 * source, queries, inserts, alerts on external sources).
 *
 * <p>In {@linkplain Mode#RESTRICTED restricted} mode (a server bound to anything but loopback, or
 * started with the deprecated {@code --webhook-deny-private}) it refuses loopback, private (RFC
 * 1918), link-local (169.254.0.0/16, fe80::/10: cloud metadata services among them), shared
 * (carrier-grade NAT, 100.64.0.0/10), unique-local (fc00::/7), unspecified, "this network"
 * (0.0.0.0/8), multicast and broadcast addresses, those IPv4 addresses also when written inside
 * IPv6 (mapped, compatible, 6to4 2002::/16, NAT64 64:ff9b::/96), and every address of the server's
 * own network interfaces, unless {@code --allow-outbound} lists them. In {@linkplain Mode#OPEN
 * open} mode (a server bound only to loopback: nobody else can reach it) every destination is
 * allowed.
 *
 * <p>A name is resolved once by {@link #resolve}; callers connect to the addresses it returned,
 * never to the name again, so that no DNS answer can change between the check and the connection.
 */
public final class OutboundPolicy {
  /** Whether special addresses are refused. */
  public enum Mode {
    /** every destination is allowed. */
    OPEN,
    /** special addresses and the server's own are refused unless allowed by a range. */
    RESTRICTED
  }

  /** Resolves host names (the JDK's resolver in the server; tests give their own). */
  @FunctionalInterface
  public interface Resolver {
    /**
     * @param host a host name or literal address
     * @return its addresses
     * @throws UnknownHostException when it has none
     */
    InetAddress[] resolve(String host) throws UnknownHostException;
  }

  /** Lists the server's own addresses. */
  @FunctionalInterface
  public interface OwnAddresses {
    /**
     * @return every address of the server's network interfaces
     * @throws SocketException when they cannot be listed
     */
    Set<InetAddress> list() throws SocketException;
  }

  /** A destination the policy refuses; its message says why, in our words. */
  public static final class RefusedException extends IOException {
    private static final long serialVersionUID = 1L;

    RefusedException(String message) {
      super(message);
    }
  }

  /**
   * An address range of {@code --allow-outbound}.
   *
   * @param network the range's first address (host bits cleared)
   * @param prefix the number of leading bits that must match
   */
  public record Cidr(InetAddress network, int prefix) {
    /**
     * @param text {@code ADDRESS/BITS} or a single {@code ADDRESS} (IPv4 or IPv6 literal)
     * @return the range
     * @throws IllegalArgumentException when it is not one
     */
    public static Cidr parse(String text) {
      String s = text.trim();
      int slash = s.indexOf('/');
      String address = slash < 0 ? s : s.substring(0, slash);
      if (address.startsWith("[") && address.endsWith("]")) {
        address = address.substring(1, address.length() - 1);
      }
      if (!address.matches("[0-9.]+")
          && !(address.contains(":") && address.matches("[0-9A-Fa-f:.]+"))) {
        throw new IllegalArgumentException(
            "'" + text + "' is not an IPv4 or IPv6 address range such as 10.0.0.0/8 or fd00::/8");
      }
      InetAddress a;
      try {
        a = InetAddress.getByName(address); // a literal: never looked up
      } catch (UnknownHostException e) {
        throw new IllegalArgumentException("'" + text + "' is not an IPv4 or IPv6 address");
      }
      int bits = a.getAddress().length * 8;
      int prefix = bits;
      if (slash >= 0) {
        try {
          prefix = Integer.parseInt(s.substring(slash + 1));
        } catch (NumberFormatException e) {
          prefix = -1;
        }
        if (prefix < 0 || prefix > bits) {
          throw new IllegalArgumentException(
              "'" + text + "': the prefix length must be from 0 to " + bits);
        }
      }
      byte[] b = a.getAddress();
      for (int i = 0; i < b.length; i++) {
        int keep = Math.max(0, Math.min(8, prefix - i * 8));
        b[i] &= (byte) (0xff << (8 - keep));
      }
      try {
        return new Cidr(InetAddress.getByAddress(b), prefix);
      } catch (UnknownHostException e) {
        throw new IllegalStateException(e); // 4 or 16 bytes are always an address
      }
    }

    /**
     * @param a an address
     * @return whether the range holds it
     */
    public boolean contains(InetAddress a) {
      byte[] n = network.getAddress();
      byte[] b = a.getAddress();
      if (n.length != b.length) {
        return false;
      }
      for (int i = 0; i < b.length; i++) {
        int keep = Math.max(0, Math.min(8, prefix - i * 8));
        int mask = (0xff << (8 - keep)) & 0xff;
        if ((n[i] & mask) != (b[i] & mask)) {
          return false;
        }
      }
      return true;
    }

    @Override
    public String toString() {
      return network.getHostAddress() + "/" + prefix;
    }
  }

  private final Mode mode;
  private final List<Cidr> allowed;
  private final Resolver resolver;
  private final OwnAddresses own;

  private OutboundPolicy(Mode mode, List<Cidr> allowed, Resolver resolver, OwnAddresses own) {
    this.mode = mode;
    this.allowed = List.copyOf(allowed);
    this.resolver = resolver;
    this.own = own;
  }

  /**
   * @return a policy allowing every destination (a server bound only to loopback)
   */
  public static OutboundPolicy open() {
    return new OutboundPolicy(
        Mode.OPEN, List.of(), InetAddress::getAllByName, OutboundPolicy::cachedInterfaceAddresses);
  }

  /**
   * @param allowed the ranges allowed although special ({@code --allow-outbound})
   * @return a policy refusing special addresses and the server's own outside those ranges
   */
  public static OutboundPolicy restricted(List<Cidr> allowed) {
    return new OutboundPolicy(
        Mode.RESTRICTED,
        allowed,
        InetAddress::getAllByName,
        OutboundPolicy::cachedInterfaceAddresses);
  }

  /**
   * The policy of a server: open when it is bound only to loopback, restricted otherwise or when
   * {@code restrict} asks for it.
   *
   * @param bindHost the {@code --host} the server listens on
   * @param restrict whether to restrict even on loopback ({@code --webhook-deny-private})
   * @param allowed the {@code --allow-outbound} ranges
   * @return the policy
   */
  public static OutboundPolicy forServer(String bindHost, boolean restrict, List<Cidr> allowed) {
    Mode mode = restrict || !loopbackOnly(bindHost) ? Mode.RESTRICTED : Mode.OPEN;
    return new OutboundPolicy(
        mode, allowed, InetAddress::getAllByName, OutboundPolicy::cachedInterfaceAddresses);
  }

  /**
   * @param bindHost a {@code --host} value: an IP literal or {@code localhost}
   * @return whether a server bound there can be reached from this machine only
   */
  public static boolean loopbackOnly(String bindHost) {
    String h = bindHost.trim().toLowerCase(Locale.ROOT);
    if (h.equals("localhost")) {
      return true;
    }
    if (h.startsWith("[") && h.endsWith("]")) {
      h = h.substring(1, h.length() - 1);
    }
    if (!h.matches("[0-9.]+") && !(h.contains(":") && h.matches("[0-9a-f:.]+"))) {
      return false; // not a literal: never looked up here
    }
    try {
      return InetAddress.getByName(h).isLoopbackAddress();
    } catch (UnknownHostException e) {
      return false;
    }
  }

  /**
   * @param r the resolver to use instead of the JDK's (tests)
   * @return this policy with it
   */
  public OutboundPolicy withResolver(Resolver r) {
    return new OutboundPolicy(mode, allowed, r, own);
  }

  /**
   * @param o where the server's own addresses come from instead of its interfaces (tests)
   * @return this policy with it
   */
  public OutboundPolicy withOwnAddresses(OwnAddresses o) {
    return new OutboundPolicy(mode, allowed, resolver, o);
  }

  /**
   * @return the mode
   */
  public Mode mode() {
    return mode;
  }

  /**
   * @return the ranges allowed although special
   */
  public List<Cidr> allowed() {
    return allowed;
  }

  /**
   * Resolves a host once and checks every address it resolves to.
   *
   * @param host a host name or IP literal (brackets around IPv6 allowed)
   * @return its addresses, all allowed: connect to these, never to the name
   * @throws UnknownHostException when the name does not resolve
   * @throws RefusedException when one of its addresses is refused (nothing should be sent)
   */
  public InetAddress[] resolve(String host) throws UnknownHostException, RefusedException {
    String bare =
        host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    InetAddress[] addresses = resolver.resolve(bare);
    if (addresses.length == 0) {
      throw new UnknownHostException(bare);
    }
    for (InetAddress a : addresses) {
      String why = refusal(a);
      if (why != null) {
        String subject =
            a.getHostAddress().equalsIgnoreCase(bare) || isLiteral(bare)
                ? a.getHostAddress() + " is "
                : bare + " resolves to " + a.getHostAddress() + ", ";
        throw new RefusedException(
            subject
                + why
                + "; the outbound address policy refuses it (--allow-outbound can allow it)");
      }
    }
    return addresses;
  }

  /**
   * @param a an address
   * @return why this policy refuses it, or {@code null} when it is allowed
   */
  public String refusal(InetAddress a) {
    if (mode == Mode.OPEN) {
      return null;
    }
    Inet4Address embedded = a instanceof Inet6Address ? embeddedV4(a.getAddress()) : null;
    for (Cidr c : allowed) {
      if (c.contains(a) || (embedded != null && c.contains(embedded))) {
        return null;
      }
    }
    String why = special(a);
    if (why != null) {
      return why;
    }
    Set<InetAddress> mine;
    try {
      mine = own.list();
    } catch (SocketException e) {
      return "an address that cannot be compared with the server's own (they cannot be listed)";
    }
    if (mine.contains(a) || (embedded != null && mine.contains(embedded))) {
      return "an address of this server";
    }
    return null;
  }

  /**
   * @param a an address
   * @return why it is special (loopback, private, ...), or {@code null} for a public address
   */
  public static String special(InetAddress a) {
    if (a instanceof Inet6Address) {
      byte[] b = a.getAddress();
      Inet4Address embedded = embeddedV4(b);
      if (embedded != null) {
        return special(embedded);
      }
      if ((b[0] & 0xfe) == 0xfc) {
        return "a private (unique local) address";
      }
      if ((b[0] & 0xff) == 0xfe && (b[1] & 0xc0) == 0x80) {
        return "a link-local address";
      }
    }
    if (a.isLoopbackAddress()) {
      return "a loopback address";
    }
    if (a.isLinkLocalAddress()) {
      return "a link-local address";
    }
    if (a.isSiteLocalAddress()) {
      return "a private address";
    }
    if (a.isAnyLocalAddress()) {
      return "the unspecified address";
    }
    if (a.isMulticastAddress()) {
      return "a multicast address";
    }
    if (a instanceof Inet4Address) {
      byte[] b = a.getAddress();
      int first = b[0] & 0xff;
      int second = b[1] & 0xff;
      if (first == 0) {
        return "an address of this network (0.0.0.0/8)";
      }
      if (first == 100 && second >= 64 && second < 128) {
        return "a shared address (100.64.0.0/10)";
      }
      if (first == 255 && (b[1] & b[2] & b[3] & 0xff) == 0xff) {
        return "the broadcast address";
      }
    }
    return null;
  }

  /**
   * The IPv4 address inside an IPv4-compatible, IPv4-mapped, NAT64 (64:ff9b::/96) or 6to4
   * (2002::/16) address.
   */
  static Inet4Address embeddedV4(byte[] b) {
    if (b.length != 16) {
      return null;
    }
    boolean zeros = true;
    for (int i = 0; i < 10; i++) {
      zeros &= b[i] == 0;
    }
    boolean mapped = zeros && (b[10] & 0xff) == 0xff && (b[11] & 0xff) == 0xff;
    boolean compatible = zeros && b[10] == 0 && b[11] == 0 && (b[12] | b[13] | b[14]) != 0;
    boolean nat64 =
        (b[0] & 0xff) == 0
            && (b[1] & 0xff) == 0x64
            && (b[2] & 0xff) == 0xff
            && (b[3] & 0xff) == 0x9b;
    for (int i = 4; nat64 && i < 12; i++) {
      nat64 = b[i] == 0;
    }
    byte[] v4;
    if (mapped || compatible || nat64) {
      v4 = new byte[] {b[12], b[13], b[14], b[15]};
    } else if ((b[0] & 0xff) == 0x20 && (b[1] & 0xff) == 0x02) {
      v4 = new byte[] {b[2], b[3], b[4], b[5]}; // 6to4: 2002:AABB:CCDD::/48
    } else {
      return null;
    }
    try {
      return (Inet4Address) InetAddress.getByAddress(v4);
    } catch (UnknownHostException e) {
      throw new IllegalStateException(e); // four bytes are always an address
    }
  }

  private static boolean isLiteral(String host) {
    return host.matches("[0-9.]+") || (host.contains(":") && host.matches("[0-9A-Fa-f:.%a-z]+"));
  }

  private static final long OWN_TTL_NANOS = 5_000_000_000L;
  private static volatile Set<InetAddress> ownCache;
  private static volatile long ownListedAt;

  /**
   * The addresses of this machine's network interfaces, listed again when five seconds old (an
   * address added to an interface is refused within five seconds; a request to an external
   * ClickHouse does not pay for listing them each time).
   */
  static Set<InetAddress> cachedInterfaceAddresses() throws SocketException {
    Set<InetAddress> cached = ownCache;
    long now = System.nanoTime();
    if (cached == null || now - ownListedAt > OWN_TTL_NANOS) {
      cached = interfaceAddresses();
      ownCache = cached;
      ownListedAt = now;
    }
    return cached;
  }

  /** Every address of this machine's network interfaces. */
  static Set<InetAddress> interfaceAddresses() throws SocketException {
    List<InetAddress> out = new ArrayList<>();
    for (NetworkInterface n : Collections.list(NetworkInterface.getNetworkInterfaces())) {
      out.addAll(Collections.list(n.getInetAddresses()));
    }
    // Compare without the scope (fe80::1%eth0 equals fe80::1 as a destination).
    return out.stream()
        .map(
            a -> {
              try {
                return InetAddress.getByAddress(a.getAddress());
              } catch (UnknownHostException e) {
                throw new IllegalStateException(e);
              }
            })
        .collect(Collectors.toUnmodifiableSet());
  }

  @Override
  public String toString() {
    return mode == Mode.OPEN
        ? "every destination allowed"
        : "special addresses refused" + (allowed.isEmpty() ? "" : " except " + allowed);
  }
}
