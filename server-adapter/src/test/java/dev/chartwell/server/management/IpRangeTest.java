package dev.chartwell.server.management;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.InetAddress;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class IpRangeTest {
  @ParameterizedTest
  @CsvSource({
    "10.0.0.0/8, 10.255.1.2, true",
    "10.0.0.0/8, 11.0.0.1, false",
    "192.0.2.1, 192.0.2.1, true",
    "192.0.2.1, 192.0.2.2, false",
    "0.0.0.0/0, 203.0.113.9, true",
    "2001:db8::/32, 2001:db8:1::5, true",
    "2001:db8::/32, 2001:db9::1, false",
    "::1, ::1, true",
    "127.0.0.0/8, ::1, false",
    "::/0, 127.0.0.1, false",
  })
  void contains(String range, String address, boolean expected) throws Exception {
    assertEquals(
        expected, IpRange.parse(range).orElseThrow().contains(InetAddress.getByName(address)));
  }

  @ParameterizedTest
  @CsvSource({"example.com", "10.0.0.0/33", "256.1.1.1", "''", "1.2.3", "::1/129"})
  void refusesWhatIsNoAddressOrBlock(String text) {
    assertEquals(Optional.empty(), IpRange.parse(text));
  }
}
