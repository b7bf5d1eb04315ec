package dev.chartwell.server.http;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chartwell.server.MutableClock;
import java.net.InetAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The failed-authentication limiter with explicit client addresses and a clock moved by hand. */
class FailedAuthLimiterTest {
  final MutableClock clock = new MutableClock(Instant.parse("2026-05-10T00:00:00Z"));
  final List<String> log = new ArrayList<>();
  final FailedAuthLimiter limiter =
      new FailedAuthLimiter(clock, FailedAuthLimiter.Policy.DEFAULT, log::add);

  static InetAddress ip(String literal) throws Exception {
    return InetAddress.getByName(literal);
  }

  /** One attempt: refused (429) or verified, and then counted. */
  String attempt(InetAddress from, String id, boolean right) {
    try {
      limiter.check(from, id);
    } catch (ApiException e) {
      assertEquals(ErrorCode.TOO_MANY_REQUESTS, e.code());
      return "429 " + e.headers().get("Retry-After");
    }
    if (right) {
      limiter.succeeded(from, id);
      return "ok";
    }
    limiter.failed(from, id);
    return "401";
  }

  @Test
  void anAddressIsLockedOutAfterFiveFailuresWithABackOffThatDoublesToFifteenMinutes()
      throws Exception {
    InetAddress a = ip("203.0.113.9");
    for (int i = 0; i < 5; i++) {
      assertEquals("401", attempt(a, "KEY", false));
    }
    // The right secret from the locked address is refused too: otherwise guessing goes on.
    assertEquals("429 1", attempt(a, "KEY", true));
    assertEquals("429 1", attempt(a, null, true), "a Bearer token as well");
    ApiException e = assertThrows(ApiException.class, () -> limiter.check(a, null));
    assertEquals(
        "TOO_MANY_REQUESTS: too many failed authentications from 203.0.113.9; try again in 1 s",
        e.envelopeText());
    clock.advance(Duration.ofSeconds(1));
    long expected = 1;
    for (int lockout = 2; lockout <= 14; lockout++) {
      for (int i = 0; i < 5; i++) {
        assertEquals("401", attempt(a, "KEY", false), "lock-out " + lockout);
      }
      expected = Math.min(expected * 2, 900);
      assertEquals("429 " + expected, attempt(a, "KEY", true), "lock-out " + lockout);
      clock.advance(Duration.ofSeconds(expected - 1));
      assertEquals("429 1", attempt(a, "KEY", true));
      clock.advance(Duration.ofSeconds(1));
    }
    assertEquals(900, expected, "capped at 15 minutes");
    // One line per lock-out, not per request: 14 of the address, 14 of the key id.
    assertEquals(28, log.size(), log.toString());
    assertEquals(14, log.stream().filter(l -> l.startsWith("authentication from ")).count());
    assertEquals(
        "authentication from 203.0.113.9 locked out for 1 s after 5 failures within 60 s"
            + " (lock-out 1)",
        log.get(0));
    assertEquals("ok", attempt(a, "KEY", true));
    assertEquals("401", attempt(a, "KEY", false), "a success reset the count and the back-off");
  }

  @Test
  void failuresOutsideTheWindowDoNotAddUp() throws Exception {
    InetAddress a = ip("198.51.100.7");
    for (int i = 0; i < 20; i++) {
      assertEquals("401", attempt(a, null, false));
      clock.advance(Duration.ofSeconds(16)); // 4 a minute
    }
    assertEquals(List.of(), log);
  }

  @Test
  void aSuccessForgetsTheAddresssFailures() throws Exception {
    InetAddress a = ip("198.51.100.8");
    for (int round = 0; round < 5; round++) {
      for (int i = 0; i < 4; i++) {
        assertEquals("401", attempt(a, "KEY", false));
      }
      assertEquals("ok", attempt(a, "KEY", true));
    }
    assertEquals(List.of(), log);
  }

  @Test
  void aKeyUnderAttackFromManyAddressesStillTakesItsSecretFromAnAddressThatHasNotFailed()
      throws Exception {
    // Five attackers fail once each: the key is locked out, no address is.
    for (int i = 1; i <= 5; i++) {
      assertEquals("401", attempt(ip("192.0.2." + i), "KEY", false));
    }
    assertEquals(1, log.size(), log.toString());
    assertTrue(log.get(0).startsWith("authentication for key id ending in 'KEY' locked out"));
    // An attacker's address is refused for this key, whatever it sends ...
    assertEquals("429 1", attempt(ip("192.0.2.1"), "KEY", true));
    ApiException e = assertThrows(ApiException.class, () -> limiter.check(ip("192.0.2.2"), "KEY"));
    assertEquals("1", e.headers().get("Retry-After"));
    // ... but may use another key, and the owner's address is not refused: its right secret passes.
    assertEquals("ok", attempt(ip("192.0.2.1"), "OTHER", true));
    assertEquals("ok", attempt(ip("10.1.1.1"), "KEY", true));
    // A new attacker address gets one guess, then is refused for the key too.
    assertEquals("401", attempt(ip("192.0.2.99"), "KEY", false));
    assertEquals("429 1", attempt(ip("192.0.2.99"), "KEY", false));
    // The lock-out in force stays to its end (the owner's success does not lift it for attackers).
    assertEquals("429 1", attempt(ip("192.0.2.3"), "KEY", false));
    clock.advance(Duration.ofSeconds(1));
    assertEquals("401", attempt(ip("192.0.2.3"), "KEY", false));
  }

  @Test
  void ipv6AddressesCountByTheirSlash64() throws Exception {
    for (int i = 1; i <= 5; i++) {
      assertEquals("401", attempt(ip("2001:db8:1:2::" + i), null, false));
    }
    assertEquals("429 1", attempt(ip("2001:db8:1:2:ffff::1"), null, true));
    assertEquals("ok", attempt(ip("2001:db8:1:3::1"), null, true));
    assertEquals(
        "authentication from 2001:db8:1:2:0:0:0:0/64 locked out for 1 s after 5 failures within"
            + " 60 s (lock-out 1)",
        log.get(0));
  }

  @Test
  void theTablesAreBoundedAndForgetQuietRecords() throws Exception {
    FailedAuthLimiter small =
        new FailedAuthLimiter(
            clock,
            new FailedAuthLimiter.Policy(
                5,
                Duration.ofMinutes(1),
                Duration.ofSeconds(1),
                Duration.ofMinutes(15),
                Duration.ofMinutes(15),
                100),
            log::add);
    // An attacker rotating ids and addresses: never more than 100 records a table.
    for (int i = 0; i < 100_000; i++) {
      small.failed(ip("10." + (i >> 16 & 255) + "." + (i >> 8 & 255) + "." + (i & 255)), "id" + i);
    }
    assertTrue(small.size() <= 300, "records: " + small.size());
    clock.advance(Duration.ofMinutes(15));
    small.failed(ip("192.0.2.1"), "last");
    assertEquals(3, small.size(), "everything quiet for 15 minutes is forgotten");
  }

  @Test
  void idsAreNeverLoggedWholeNorWithControlCharacters() throws Exception {
    String id = "secret-looking-user\nname\u0007";
    for (int i = 1; i <= 5; i++) {
      limiter.failed(ip("192.0.2." + i), id);
    }
    assertEquals(1, log.size());
    assertEquals(
        "authentication for key id ending in 'ame?' locked out for 1 s after 5 failures within"
            + " 60 s (lock-out 1)",
        log.get(0));
    assertDoesNotThrow(() -> limiter.check(ip("192.0.2.200"), id));
  }
}
