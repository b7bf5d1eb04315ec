package dev.chartwell.server.alerts;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * Which addresses {@code --webhook-deny-private} refuses: loopback, link-local (cloud metadata
 * services among them), private (RFC 1918 and IPv6 unique local), shared (100.64.0.0/10),
 * unspecified, multicast and broadcast addresses, IPv4 ones also when written inside IPv6 (mapped,
 * compatible, NAT64).
 */
final class AddressPolicy {
  private AddressPolicy() {}

  /**
   * @param a an address
   * @return why it is refused, or {@code null} when it is a public address
   */
  static String refusal(InetAddress a) {
    if (a instanceof Inet6Address v6) {
      byte[] b = v6.getAddress();
      Inet4Address embedded = embeddedV4(b);
      if (embedded != null) {
        return refusal(embedded);
      }
      if ((b[0] & 0xfe) == 0xfc) {
        return "a private (unique local) address";
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

  /** The IPv4 address inside an IPv4-compatible, IPv4-mapped or NAT64 (64:ff9b::/96) address. */
  private static Inet4Address embeddedV4(byte[] b) {
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
    if (!mapped && !compatible && !nat64) {
      return null;
    }
    try {
      return (Inet4Address) InetAddress.getByAddress(new byte[] {b[12], b[13], b[14], b[15]});
    } catch (UnknownHostException e) {
      throw new IllegalStateException(e); // four bytes are always an address
    }
  }
}
