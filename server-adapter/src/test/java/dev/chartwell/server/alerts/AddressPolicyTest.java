package dev.chartwell.server.alerts;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.InetAddress;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The addresses {@code --webhook-deny-private} refuses, as literals: nothing here resolves a name
 * or connects anywhere.
 */
class AddressPolicyTest {
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
        "fd12:3456::1, a private (unique local) address",
        "fc00::1, a private (unique local) address",
        "100.64.0.1, a shared address (100.64.0.0/10)",
        "100.128.0.1, public",
        "0.0.0.0, the unspecified address",
        "0.1.2.3, an address of this network (0.0.0.0/8)",
        ":: , the unspecified address",
        "224.0.0.1, a multicast address",
        "ff02::1, a multicast address",
        "255.255.255.255, the broadcast address",
        "::ffff:10.0.0.1, a private address",
        "::ffff:127.0.0.1, a loopback address",
        "64:ff9b::a00:1, a private address",
        "64:ff9b::808:808, public",
        "8.8.8.8, public",
        "2606:4700::1111, public",
      })
  void refusals(String literal, String refusal) throws Exception {
    // A literal is parsed, never looked up.
    assertEquals(refusal, AddressPolicy.refusal(InetAddress.getByName(literal)));
  }
}
