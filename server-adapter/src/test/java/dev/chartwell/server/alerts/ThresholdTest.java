package dev.chartwell.server.alerts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Every threshold type at and around its boundary, and how notifications word it. */
class ThresholdTest {
  @ParameterizedTest(name = "{0} {1}: {2}")
  @CsvSource({
    "above, 4.999, false",
    "above, 5, true",
    "above, 5.001, true",
    "above_exclusive, 5, false",
    "above_exclusive, 5.001, true",
    "below, 4.999, true",
    "below, 5, false",
    "below_or_equal, 5, true",
    "below_or_equal, 5.001, false",
    "equal, 5, true",
    "equal, 5.001, false",
    "equal, 4.999, false",
    "not_equal, 5, false",
    "not_equal, 4.999, true",
    "between, 4.999, false",
    "between, 5, true",
    "between, 6, true",
    "between, 7, true",
    "between, 7.001, false",
    "not_between, 4.999, true",
    "not_between, 5, false",
    "not_between, 7, false",
    "not_between, 7.001, true",
    // a window without rows counts as 0
    "above, 0, false",
    "below, 0, true",
  })
  void boundaries(String type, double value, boolean exceeds) {
    assertEquals(exceeds, new Threshold(type, 5, 7).exceeds(value));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "above, meets or exceeds, falls below, 5",
    "above_exclusive, exceeds, falls to or below, 5",
    "below, falls below, meets or exceeds, 5",
    "below_or_equal, falls to or below, exceeds, 5",
    "equal, equals, does not equal, 5",
    "not_equal, does not equal, equals, 5",
    "between, falls between, falls outside, 5 and 7",
    "not_between, falls outside, falls between, 5 and 7",
  })
  void wording(String type, String violation, String resolution, String described) {
    Threshold t = new Threshold(type, 5, 7);
    assertEquals(violation, t.violation());
    assertEquals(resolution, t.resolution());
    assertEquals(described, t.describe());
  }

  @ParameterizedTest(name = "{1} against {0}: {2}")
  @CsvSource({
    "5, 10.6, 11",
    "1.5, 10.1, 10.1",
    "1.5, 10, 10.0",
    "0.25, 3.14159, 3.14",
    "100, 7, 7"
  })
  void valuesHaveTheThresholdsDecimals(double threshold, double value, String shown) {
    assertEquals(shown, new Threshold("above", threshold, 0).format(value));
  }

  @org.junit.jupiter.api.Test
  void unknownTypesAreRefused() {
    assertThrows(IllegalArgumentException.class, () -> new Threshold("over", 1, 0));
  }
}
