package dev.chartwell.server.management;

import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * An IPv4 or IPv6 address or CIDR block from an IP access list ({@code 10.0.0.0/8}, {@code
 * 192.0.2.1}, {@code 2001:db8::/32}), and whether an address falls in it.
 *
 * @param network the network address
 * @param prefix the prefix length (32 or 128 for a single address)
 */
record IpRange(InetAddress network, int prefix) {
  private static final Pattern IPV4 =
      Pattern.compile(
          "(25[0-5]|2[0-4]\\d|1?\\d?\\d)(\\.(25[0-5]|2[0-4]\\d|1?\\d?\\d)){3}(/(3[0-2]|[12]?\\d))?");
  private static final Pattern IPV6 =
      Pattern.compile("[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*(/(12[0-8]|1[01]\\d|[1-9]?\\d))?");

  /**
   * @param text an address or CIDR block
   * @return the range, or empty when the text is neither
   */
  static Optional<IpRange> parse(String text) {
    boolean v4 = IPV4.matcher(text).matches();
    if (!v4 && !IPV6.matcher(text).matches()) {
      return Optional.empty();
    }
    int slash = text.indexOf('/');
    String address = slash < 0 ? text : text.substring(0, slash);
    try {
      // Only literals get here (the patterns allow no host names), so this never looks anything up.
      InetAddress a = InetAddress.getByName(address);
      int bits = a.getAddress().length * 8;
      return Optional.of(
          new IpRange(a, slash < 0 ? bits : Integer.parseInt(text.substring(slash + 1))));
    } catch (UnknownHostException e) {
      return Optional.empty();
    }
  }

  /**
   * @param address a client address
   * @return whether it is in this range (an IPv4 address never is in an IPv6 range, and back)
   */
  boolean contains(InetAddress address) {
    byte[] a = address.getAddress();
    byte[] n = network.getAddress();
    if (a.length != n.length) {
      return false;
    }
    int bits = n.length * 8;
    BigInteger mask =
        BigInteger.ONE.shiftLeft(bits).subtract(BigInteger.ONE).shiftRight(prefix).not();
    return new BigInteger(1, a).and(mask).equals(new BigInteger(1, n).and(mask));
  }
}
