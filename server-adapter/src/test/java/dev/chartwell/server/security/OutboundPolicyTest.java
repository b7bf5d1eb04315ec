package dev.chartwell.server.security;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The outbound address policy, with literals only: nothing here looks a name up in DNS or connects
 * anywhere (names resolve through a map of literals).
 */
class OutboundPolicyTest {
  static final String REFUSES =
      "; the outbound address policy refuses it (--allow-outbound can allow it)";

  /** A restricted policy whose own addresses are 203.0.113.5 and 2001:db8::5 (none listed). */
  static OutboundPolicy restricted(String... allowed) {
    List<OutboundPolicy.Cidr> ranges = new ArrayList<>();
    for (String a : allowed) {
      ranges.add(OutboundPolicy.Cidr.parse(a));
    }
    return OutboundPolicy.restricted(ranges)
        .withOwnAddresses(() -> Set.of(ip("203.0.113.5"), ip("2001:db8::5")))
        .withResolver(OutboundPolicyTest::resolve);
  }

  static final Map<String, String> DNS =
      Map.of(
          "ch.example.test", "10.0.0.1",
          "mixed.example.test", "198.51.100.7,169.254.169.254",
          "public.example.test", "198.51.100.7,2606:4700::1111",
          "rebind.example.test", "::ffff:127.0.0.1");

  static InetAddress[] resolve(String host) throws UnknownHostException {
    String literals = DNS.get(host);
    if (literals == null) {
      if (host.matches("[0-9.]+|.*:.*")) {
        return new InetAddress[] {ip(host)};
      }
      throw new UnknownHostException(host);
    }
    List<InetAddress> out = new ArrayList<>();
    for (String l : literals.split(",")) {
      out.add(ip(l));
    }
    return out.toArray(InetAddress[]::new);
  }

  static InetAddress ip(String literal) {
    try {
      return InetAddress.getByName(literal); // a literal is parsed, never looked up
    } catch (UnknownHostException e) {
      throw new AssertionError(e);
    }
  }

  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource(
      nullValues = "public",
      value = {
        "127.0.0.1, a loopback address",
        "127.255.0.9, a loopback address",
        "::1, a loopback address",
        "10.1.2.3, a private address",
        "172.16.0.1, a private address",
        "172.31.255.255, a private address",
        "172.32.0.1, public",
        "192.168.1.1, a private address",
        "169.254.169.254, a link-local address",
        "fe80::1, a link-local address",
        "febf::1, a link-local address",
        "fec0::1, a private address",
        "fd12:3456::1, a private (unique local) address",
        "fc00::1, a private (unique local) address",
        "100.64.0.1, a shared address (100.64.0.0/10)",
        "100.127.255.255, a shared address (100.64.0.0/10)",
        "100.128.0.1, public",
        "0.0.0.0, the unspecified address",
        "0.1.2.3, an address of this network (0.0.0.0/8)",
        ":: , the unspecified address",
        "224.0.0.1, a multicast address",
        "239.255.255.250, a multicast address",
        "ff02::1, a multicast address",
        "255.255.255.255, the broadcast address",
        "::ffff:10.0.0.1, a private address",
        "::ffff:127.0.0.1, a loopback address",
        "::ffff:169.254.169.254, a link-local address",
        "::10.0.0.1, a private address",
        "::ffff:8.8.8.8, public",
        "64:ff9b::a00:1, a private address",
        "64:ff9b::7f00:1, a loopback address",
        "64:ff9b::a9fe:a9fe, a link-local address",
        "64:ff9b::808:808, public",
        "2002:a00:1::1, a private address",
        "2002:7f00:1::, a loopback address",
        "2002:a9fe:a9fe::1, a link-local address",
        "2002:c0a8:101::1, a private address",
        "2002:808:808::1, public",
        "8.8.8.8, public",
        "2606:4700::1111, public",
      })
  void specialAddresses(String literal, String why) {
    assertEquals(why, OutboundPolicy.special(ip(literal)));
    assertEquals(why, restricted().refusal(ip(literal)), "restricted: refused for that reason");
    assertNull(OutboundPolicy.open().refusal(ip(literal)), "open: allowed");
  }

  @Test
  void theServersOwnAddressesAreRefusedWhenRestricted() {
    OutboundPolicy p = restricted();
    assertEquals("an address of this server", p.refusal(ip("203.0.113.5")));
    assertEquals("an address of this server", p.refusal(ip("2001:db8::5")));
    assertEquals("an address of this server", p.refusal(ip("::ffff:203.0.113.5")));
    assertNull(p.refusal(ip("203.0.113.6")));
    assertNull(OutboundPolicy.open().refusal(ip("203.0.113.5")));
    OutboundPolicy unlisted =
        p.withOwnAddresses(
            () -> {
              throw new SocketException("no interfaces");
            });
    assertTrue(
        unlisted.refusal(ip("198.51.100.7")).contains("cannot be compared"),
        "fails closed when the interfaces cannot be listed");
  }

  @Test
  void theMachinesInterfacesAreListedAndLoopbackIsAmongThem() throws Exception {
    Set<InetAddress> mine = OutboundPolicy.interfaceAddresses();
    assertTrue(mine.contains(ip("127.0.0.1")), mine.toString());
    assertEquals(mine, OutboundPolicy.cachedInterfaceAddresses());
    assertEquals(
        "a loopback address",
        OutboundPolicy.restricted(List.of()).refusal(ip("127.0.0.1")),
        "special before own");
    for (InetAddress a : mine) {
      assertTrue(
          OutboundPolicy.restricted(List.of()).refusal(a) != null, "own address refused: " + a);
    }
  }

  @Test
  void allowOutboundRangesWin() {
    OutboundPolicy p = restricted("10.0.0.0/8", "127.0.0.1", "fd00::/8", "203.0.113.5/32");
    assertNull(p.refusal(ip("10.200.3.4")));
    assertNull(p.refusal(ip("::ffff:10.0.0.1")), "a mapped form of an allowed address");
    assertNull(p.refusal(ip("127.0.0.1")));
    assertEquals("a loopback address", p.refusal(ip("127.0.0.2")));
    assertNull(p.refusal(ip("fd12::1")));
    assertEquals("a private (unique local) address", p.refusal(ip("fc00::1")));
    assertNull(p.refusal(ip("203.0.113.5")), "an own address listed");
    assertEquals("a private address", p.refusal(ip("192.168.1.1")));
  }

  @Test
  void rangesParse() {
    assertEquals("10.0.0.0/8", OutboundPolicy.Cidr.parse("10.1.2.3/8").toString());
    assertEquals("127.0.0.1/32", OutboundPolicy.Cidr.parse(" 127.0.0.1 ").toString());
    assertEquals("fd00:0:0:0:0:0:0:0/8", OutboundPolicy.Cidr.parse("fd12::/8").toString());
    assertEquals("0:0:0:0:0:0:0:1/128", OutboundPolicy.Cidr.parse("[::1]").toString());
    assertTrue(OutboundPolicy.Cidr.parse("0.0.0.0/0").contains(ip("8.8.8.8")));
    assertTrue(OutboundPolicy.Cidr.parse("100.64.0.0/10").contains(ip("100.127.1.1")));
    assertTrue(!OutboundPolicy.Cidr.parse("100.64.0.0/10").contains(ip("100.128.1.1")));
    assertTrue(!OutboundPolicy.Cidr.parse("10.0.0.0/8").contains(ip("fd00::1")));
    for (String bad :
        new String[] {"10.0.0.0/33", "fd00::/129", "ch.example.test", "10.0.0.0/x", ""}) {
      assertThrows(IllegalArgumentException.class, () -> OutboundPolicy.Cidr.parse(bad), bad);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"127.0.0.1", "127.1.2.3", "::1", "[::1]", "localhost", "LOCALHOST"})
  void aServerBoundToLoopbackAllowsEveryDestination(String host) {
    OutboundPolicy p = OutboundPolicy.forServer(host, false, List.of());
    assertEquals(OutboundPolicy.Mode.OPEN, p.mode());
    assertNull(p.refusal(ip("10.0.0.1")));
    assertEquals(
        OutboundPolicy.Mode.RESTRICTED,
        OutboundPolicy.forServer(host, true, List.of()).mode(),
        "--webhook-deny-private restricts a loopback server too");
  }

  @ParameterizedTest
  @ValueSource(strings = {"0.0.0.0", "::", "192.168.1.10", "10.0.0.5", "203.0.113.5", "fd00::1"})
  void aServerBoundElsewhereRefusesSpecialAddresses(String host) {
    OutboundPolicy p = OutboundPolicy.forServer(host, false, List.of());
    assertEquals(OutboundPolicy.Mode.RESTRICTED, p.mode());
    for (String a : new String[] {"127.0.0.1", "10.0.0.1", "169.254.169.254", "fd00::1"}) {
      assertEquals(OutboundPolicy.special(ip(a)), p.refusal(ip(a)), a);
    }
    OutboundPolicy allowing =
        OutboundPolicy.forServer(host, false, List.of(OutboundPolicy.Cidr.parse("10.0.0.0/8")));
    assertNull(allowing.refusal(ip("10.0.0.1")));
    assertEquals("a loopback address", allowing.refusal(ip("127.0.0.1")));
  }

  @Test
  void namesResolveOnceAndEveryAddressIsChecked() throws Exception {
    OutboundPolicy p = restricted();
    OutboundPolicy.RefusedException e =
        assertThrows(OutboundPolicy.RefusedException.class, () -> p.resolve("ch.example.test"));
    assertEquals(
        "ch.example.test resolves to 10.0.0.1, a private address" + REFUSES, e.getMessage());
    e = assertThrows(OutboundPolicy.RefusedException.class, () -> p.resolve("mixed.example.test"));
    assertEquals(
        "mixed.example.test resolves to 169.254.169.254, a link-local address" + REFUSES,
        e.getMessage(),
        "one refused address among allowed ones is enough");
    e = assertThrows(OutboundPolicy.RefusedException.class, () -> p.resolve("rebind.example.test"));
    assertTrue(e.getMessage().contains("a loopback address"), e.getMessage());
    e = assertThrows(OutboundPolicy.RefusedException.class, () -> p.resolve("[fd00::1]"));
    assertEquals(
        "fd00:0:0:0:0:0:0:1 is a private (unique local) address" + REFUSES, e.getMessage());
    e = assertThrows(OutboundPolicy.RefusedException.class, () -> p.resolve("192.168.1.1"));
    assertEquals("192.168.1.1 is a private address" + REFUSES, e.getMessage());
    assertArrayEquals(
        new InetAddress[] {ip("198.51.100.7"), ip("2606:4700::1111")},
        p.resolve("public.example.test"),
        "the addresses to connect to are the ones checked");
    assertThrows(UnknownHostException.class, () -> p.resolve("nowhere.invalid"));
    List<String> asked = new ArrayList<>();
    OutboundPolicy counting =
        p.withResolver(
            h -> {
              asked.add(h);
              return resolve(h);
            });
    counting.resolve("public.example.test");
    assertEquals(List.of("public.example.test"), asked, "one lookup per check");
  }
}
