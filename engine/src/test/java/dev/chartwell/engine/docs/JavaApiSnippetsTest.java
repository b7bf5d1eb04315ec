package dev.chartwell.engine.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chartwell.engine.AppendResult;
import dev.chartwell.engine.ChartQuery;
import dev.chartwell.engine.ChartResult;
import dev.chartwell.engine.Engine;
import dev.chartwell.engine.Event;
import dev.chartwell.engine.SearchResult;
import dev.chartwell.engine.Series;
import dev.chartwell.engine.Source;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Keeps {@code docs/java-api.md} true: every Java block of the page is a region of the compiled
 * snippet sources, character for character, and the snippets run.
 */
class JavaApiSnippetsTest {
  static final Path PAGE = Path.of("..", "docs", "java-api.md");
  static final Path SOURCES = Path.of("src", "test", "java", "dev", "chartwell", "engine", "docs");
  static final Pattern REGION =
      Pattern.compile(
          "(?m)^[ \\t]*// \\[snippet:([\\w-]+)]\\n(.*?)^[ \\t]*// \\[end]$", Pattern.DOTALL);
  static final Pattern BLOCK =
      Pattern.compile("(?:<!-- snippet: ([\\w-]+) -->\\n+)?```java\\n(.*?)```", Pattern.DOTALL);

  @Test
  void everyJavaBlockOfThePageIsACompiledSnippet() throws IOException {
    Map<String, String> regions = new LinkedHashMap<>();
    for (String file : List.of("GettingStarted.java", "JavaApiSnippets.java")) {
      Matcher m = REGION.matcher(Files.readString(SOURCES.resolve(file)));
      while (m.find()) {
        regions.put(m.group(1), dedent(m.group(2)));
      }
    }
    assertTrue(regions.size() >= 10, "regions found: " + regions.keySet());
    String page = Files.readString(PAGE);
    Matcher b = BLOCK.matcher(page);
    List<String> shown = new ArrayList<>();
    while (b.find()) {
      String name = b.group(1);
      assertTrue(
          name != null,
          "a java block of "
              + PAGE
              + " has no <!-- snippet: NAME --> line before it:\n"
              + b.group(2));
      assertTrue(regions.containsKey(name), "no snippet region named " + name + " in " + SOURCES);
      assertEquals(
          regions.get(name),
          b.group(2),
          "the page's block '"
              + name
              + "' differs from its compiled snippet; copy it from "
              + SOURCES);
      shown.add(name);
    }
    assertEquals(
        List.copyOf(regions.keySet()).stream().sorted().toList(),
        shown.stream().distinct().sorted().toList(),
        "every snippet is on the page");
  }

  /** Removes the region's common indentation. */
  static String dedent(String region) {
    String[] lines = region.split("\n", -1);
    int indent = Integer.MAX_VALUE;
    for (String l : lines) {
      if (!l.isBlank()) {
        indent = Math.min(indent, l.length() - l.stripLeading().length());
      }
    }
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < lines.length; i++) {
      String l = lines[i];
      if (i == lines.length - 1 && l.isEmpty()) {
        break;
      }
      sb.append(l.isBlank() ? "" : l.substring(indent)).append('\n');
    }
    return sb.toString();
  }

  @Test
  void theWarmUpSnippetBuildsAnEngineThatWorksAndCloses(@TempDir Path dir) throws Exception {
    Engine engine = JavaApiSnippets.warmedUp(dir);
    Source logs = JavaApiSnippets.sources(engine);
    logs.append(new Event(System.currentTimeMillis(), Map.of("Body", "started")));
    assertEquals(1, logs.stats().rows());
    engine.close(); // stops the warm-up under way
    assertTrue(engine.awaitWarmUp(java.time.Duration.ZERO));
  }

  @Test
  void theSnippetsRun(@TempDir Path dir) throws Exception {
    try (Engine engine = JavaApiSnippets.configure(dir)) {
      Source logs = JavaApiSnippets.sources(engine);
      long now = System.currentTimeMillis();
      List<Event> events =
          List.of(
              new Event(now, Map.of("Body", "request timeout", "SeverityText", "error")),
              new Event(now, Map.of("Body", "bad", "status", "not a number")),
              new Event(now, Map.of("Body", "ok", "SeverityText", "info", "Duration", 12.5)));
      AppendResult appended = JavaApiSnippets.append(logs, events);
      assertEquals(2, appended.accepted());
      assertEquals(1, appended.rejections().get(0).index());
      AppendResult batch =
          JavaApiSnippets.batch(
              logs,
              List.of(
                  new JavaApiSnippets.Request(now, "api", 200),
                  new JavaApiSnippets.Request(now, "web", 500)));
      assertEquals(2, batch.accepted());

      ChartResult chart =
          JavaApiSnippets.chart(
              engine, Instant.ofEpochMilli(now - 60_000), Instant.ofEpochMilli(now + 60_000));
      assertFalse(chart.rows().isEmpty());
      assertEquals(
          1L,
          chart.rows().stream()
              .map(r -> r.values().get(0))
              .filter(v -> v != null)
              .mapToLong(Number::longValue)
              .sum(),
          "one error");
      ChartResult ratio = JavaApiSnippets.ratio(engine);
      assertFalse(ratio.rows().isEmpty());
      SearchResult found = JavaApiSnippets.search(engine);
      assertEquals(1, found.rows().size());
      assertEquals("request timeout", found.rows().get(0).get("Body"));

      ChartQuery unknown =
          ChartQuery.over(now - 1000, now).source("nope").series(Series.count()).build();
      JavaApiSnippets.errors(engine, logs, new Event(1_700_000_000L, Map.of()), unknown);
      ExecutorService pool = Executors.newSingleThreadExecutor();
      try {
        ChartResult cancelled = JavaApiSnippets.cancel(engine, unknown, pool);
        assertNull(cancelled);
      } catch (java.util.concurrent.ExecutionException e) {
        assertTrue(e.getCause() instanceof dev.chartwell.engine.ChartwellException, e.toString());
      } finally {
        pool.shutdownNow();
        pool.awaitTermination(10, TimeUnit.SECONDS);
      }
      assertEquals(
          6,
          JavaApiSnippets.stats(engine).rows(),
          "two appended, two in the list, two in the batch");
    }
  }

  /** The getting-started program runs in a JVM started with no flags at all. */
  @Test
  void theGettingStartedProgramNeedsNoJvmFlags(@TempDir Path dir) throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> cmd =
        List.of(
            java,
            "-cp",
            System.getProperty("java.class.path"),
            GettingStarted.class.getName(),
            dir.resolve("data").toString());
    for (int run = 1; run <= 2; run++) {
      Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(p.waitFor(60, TimeUnit.SECONDS));
      assertEquals(0, p.exitValue(), out);
      assertFalse(out.contains("WARNING"), out);
      // the second run reopens the directory and counts both errors (unless a minute passed)
      assertTrue(out.matches("(?s).*\\d{13} \\[[12]].*"), out);
    }
  }
}
