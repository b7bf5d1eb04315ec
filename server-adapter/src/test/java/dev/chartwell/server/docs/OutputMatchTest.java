package dev.chartwell.server.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The comparisons and classification the docs test relies on, on small cases. */
class OutputMatchTest {
  @Test
  void jsonMatchesByShapeAndLearnsTheIdsItShows() {
    OutputMatch m = new OutputMatch();
    assertNull(
        m.json(
            "{\"data\":{\"id\":\"66a1f0c2b4e8d9a7c3f1e2d4\",\"rows\":3,\"tags\":[\"a\"]}}",
            "{\"data\":{\"id\":\"0123456789abcdef01234567\",\"rows\":120.5,\"tags\":[\"x\",\"y\"]}}"));
    assertEquals(Map.of("66a1f0c2b4e8d9a7c3f1e2d4", "0123456789abcdef01234567"), m.learnt);
    assertEquals(
        "curl $V2/sources/0123456789abcdef01234567",
        m.apply("curl $V2/sources/66a1f0c2b4e8d9a7c3f1e2d4"));
  }

  @Test
  void jsonFailsOnAMissingOrExtraFieldOrAnotherType() {
    OutputMatch m = new OutputMatch();
    String missing = m.json("{\"a\":1,\"b\":2}", "{\"a\":1}");
    assertNotNull(missing);
    assertTrue(missing.contains("[b]"), missing);
    assertNotNull(m.json("{\"a\":1}", "{\"a\":1,\"c\":2}"));
    assertNotNull(m.json("{\"a\":\"1\"}", "{\"a\":1}"));
    assertNotNull(m.json("{\"a\":[{\"b\":1}]}", "{\"a\":[]}"));
    assertNotNull(m.json("{\"a\":1}", "not json"));
  }

  @Test
  void jsonBlockMayShowOneValuePerCommand() {
    assertNull(new OutputMatch().json("{\"a\":1}\n{\"b\":[]}", "{\"b\":[1]}{\"a\":2}"));
  }

  @Test
  void textLinesMatchInOrderWithNumbersIdsAndEllipsisAsWildcards() {
    OutputMatch m = new OutputMatch();
    String printed =
        "note\nChartwell listening on http://127.0.0.1:4711\ndemo token: KjCPPg7I7WCjOfGxzZbNwaR3\n"
            + "loaded 1,000,000 events in 6.6 s";
    assertNull(
        m.text(
            "Chartwell listening on http://127.0.0.1:8080\ndemo token: vIKaoVURJIqr847oAwuDEdLC\n"
                + "loaded 1,000,000 events in ...",
            printed));
    assertEquals("KjCPPg7I7WCjOfGxzZbNwaR3", m.learnt.get("vIKaoVURJIqr847oAwuDEdLC"));
    assertNotNull(m.text("demo token: x\nChartwell listening on http://127.0.0.1:1", printed));
    assertNotNull(m.text("demo key: vIKaoVURJIqr847oAwuDEdLC", printed));
  }

  @Test
  void blocksAreClassifiedOrRefusedWithTheirLine() {
    String doc =
        "Start:\n\n```bash\njava -jar server-adapter/target/chartwell-server.jar --demo\n```\n\n"
            + "```text\ndemo token: x\n```\n\n```bash\ncurl -s http://127.0.0.1:8080/health\n```\n\n"
            + "```json\n{\"status\":\"ok\"}\n```\n\n*Not run by the docs test: no Vector here.*\n\n"
            + "```toml\n[sinks.x]\ntype = \"loki\"\n```\n\n```yaml\na: 1\n```\n\n"
            + "```bash\njava -jar x/chartwell-server.jar --host 0.0.0.0\n```\n";
    List<DocExamples.Example> e = DocExamples.classify(DocBlock.of(Path.of("t.md"), doc));
    assertEquals(
        List.of(
            DocExamples.Kind.SERVE,
            DocExamples.Kind.OUTPUT,
            DocExamples.Kind.RUN,
            DocExamples.Kind.OUTPUT,
            DocExamples.Kind.NOT_RUN),
        e.subList(0, 5).stream().map(DocExamples.Example::kind).toList());
    assertNull(e.get(5).kind());
    assertEquals(26, e.get(5).block().line());
    assertEquals(DocExamples.Kind.FLAGS, e.get(6).kind());
    assertNull(ConfigSyntax.check("toml", e.get(4).block().text()));
    assertNotNull(ConfigSyntax.check("yaml", "a: [1"));
  }
}
