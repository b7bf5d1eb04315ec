package dev.chartwell.server.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** When a replaced connection keeps its stored password: only while it points where it did. */
class ConnectionOriginTest {
  @ParameterizedTest(name = "{0} -> {1}: {2}")
  @CsvSource({
    "https://ch.example.test:8443, https://ch.example.test:8443/, true",
    "https://CH.example.test:8443/, https://ch.example.test:8443/x, true",
    "https://ch.example.test/, https://ch.example.test:443/, true",
    "http://ch.example.test/, http://ch.example.test:80, true",
    "https://ch.example.test:8443/, https://evil.example.test:8443/, false",
    "https://ch.example.test:8443/, https://ch.example.test:9443/, false",
    "https://ch.example.test:8443/, http://ch.example.test:8443/, false",
    "https://ch.example.test/, http://ch.example.test/, false",
    "http://10.0.0.1:8123/, http://10.0.0.2:8123/, false",
    "http://[fd00::1]:8123/, http://[fd00::2]:8123/, false",
  })
  void samePlace(String before, String after, boolean same) {
    assertEquals(same, Connections.sameOrigin(before, after));
  }
}
