package dev.chartwell.server.shippers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.maps;
import static org.quicktheories.generators.SourceDSL.strings;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LokiLabelsTest {
  @Test
  void readsSelectorsWithEscapes() throws Exception {
    assertEquals(
        Map.of("job", "app", "msg", "a \"b\" \\ c\nd"),
        LokiLabels.parse("{job=\"app\", msg=\"a \\\"b\\\" \\\\ c\\nd\"}"));
    assertEquals(Map.of(), LokiLabels.parse("{}"));
    assertEquals(Map.of("a", "1", "b", "2"), LokiLabels.parse(" { a = \"1\" ,b=\"2\" } "));
  }

  @Test
  void refusesWhatIsNotASelector() {
    for (String bad :
        new String[] {
          "",
          "job=\"a\"",
          "{job=a}",
          "{job=\"a\"",
          "{9x=\"a\"}",
          "{a=\"1\",a=\"2\"}",
          "{a=\"1\" b=\"2\"}",
          "{a=\"x\\\"}"
        }) {
      assertThrows(LokiLabels.Invalid.class, () -> LokiLabels.parse(bad), bad);
    }
  }

  /** What a client writes (quoting as Loki's clients do) reads back as it was. */
  @Test
  void roundTrips() {
    qt().forAll(
            maps()
                .of(
                    strings().betweenCodePoints('a', 'z').ofLengthBetween(1, 6),
                    strings().basicMultilingualPlaneAlphabet().ofLengthBetween(0, 10))
                .ofSizeBetween(0, 5))
        .checkAssert(
            labels -> {
              StringBuilder sb = new StringBuilder("{");
              labels.forEach(
                  (k, v) ->
                      sb.append(sb.length() > 1 ? ", " : "")
                          .append(k)
                          .append("=\"")
                          .append(
                              v.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n"))
                          .append('"'));
              sb.append('}');
              try {
                assertEquals(new LinkedHashMap<>(labels), LokiLabels.parse(sb.toString()));
              } catch (LokiLabels.Invalid e) {
                throw new AssertionError(sb + ": " + e.getMessage());
              }
            });
  }
}
