package dev.chartwell.server.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every link between the project's documents leads somewhere: the file exists, and the heading an
 * anchor names exists in it (anchors as GitHub makes them from headings). Links to other sites are
 * not followed (nothing here may contact them).
 */
class DocsLinksTest {
  static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

  private static final Pattern LINK = Pattern.compile("!?\\[[^\\]]*\\]\\(([^)\\s]+)\\)");
  private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*?)\\s*#*$");

  /** README, CHANGELOG, BENCHMARKS and every Markdown file under docs/ and benchmarks/. */
  static List<Path> documents() throws IOException {
    List<Path> docs = new ArrayList<>();
    for (String f : List.of("README.md", "CHANGELOG.md", "BENCHMARKS.md")) {
      docs.add(ROOT.resolve(f));
    }
    for (String dir : List.of("docs", "benchmarks")) {
      try (Stream<Path> s = Files.walk(ROOT.resolve(dir))) {
        s.filter(p -> p.toString().endsWith(".md"))
            .filter(p -> !p.toString().contains("/target/"))
            .sorted()
            .forEach(docs::add);
      }
    }
    return docs;
  }

  @Test
  void everyLinkBetweenDocumentsLeadsToAFileAndHeadingThatExist() throws IOException {
    Map<Path, Set<String>> anchors = new HashMap<>();
    List<String> broken = new ArrayList<>();
    int checked = 0;
    for (Path doc : documents()) {
      for (String target : links(Files.readString(doc))) {
        if (target.matches("^[a-z]+:.*")) {
          continue; // https:, mailto:: another site
        }
        checked++;
        int hash = target.indexOf('#');
        String file = hash < 0 ? target : target.substring(0, hash);
        Path to = file.isEmpty() ? doc : doc.getParent().resolve(file).normalize();
        if (!Files.exists(to)) {
          broken.add(ROOT.relativize(doc) + ": " + target + " (no such file)");
          continue;
        }
        if (hash >= 0 && to.toString().endsWith(".md")) {
          String anchor = target.substring(hash + 1);
          Set<String> known = anchors.computeIfAbsent(to, DocsLinksTest::anchorsOf);
          if (!known.contains(anchor)) {
            broken.add(ROOT.relativize(doc) + ": " + target + " (no such heading)");
          }
        }
      }
    }
    assertTrue(checked > 100, "links found: " + checked);
    assertEquals(List.of(), broken);
  }

  @Test
  void anchorsAreMadeAsGitHubMakesThem() {
    assertEquals(
        "load-and-disk-figures-get-apiv2stats", slug("Load and disk figures: `GET /api/v2/stats`"));
    assertEquals(
        "your-own-events---quickstart-and-ingest",
        slug("Your own events: `--quickstart` and `ingest`"));
    assertEquals("what_is-new", slug("What_is new?"));
  }

  /** The link targets of a Markdown text, outside fenced code blocks and inline code. */
  static List<String> links(String markdown) {
    List<String> out = new ArrayList<>();
    boolean fenced = false;
    for (String line : markdown.split("\n")) {
      if (line.strip().startsWith("```")) {
        fenced = !fenced;
        continue;
      }
      if (fenced) {
        continue;
      }
      Matcher m = LINK.matcher(line.replaceAll("`[^`]*`", ""));
      while (m.find()) {
        out.add(m.group(1));
      }
    }
    return out;
  }

  private static Set<String> anchorsOf(Path doc) {
    Set<String> out = new HashSet<>();
    Map<String, Integer> seen = new HashMap<>();
    boolean fenced = false;
    try {
      for (String line : Files.readAllLines(doc)) {
        if (line.strip().startsWith("```")) {
          fenced = !fenced;
        }
        Matcher m = HEADING.matcher(line);
        if (!fenced && m.matches()) {
          String s = slug(m.group(1));
          int n = seen.merge(s, 1, Integer::sum);
          out.add(n == 1 ? s : s + "-" + (n - 1));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  /** GitHub's heading anchor: lower case, punctuation dropped (not - or _), spaces to hyphens. */
  static String slug(String heading) {
    return heading
        .toLowerCase(Locale.ROOT)
        .replaceAll("[^\\p{L}\\p{N}\\s_-]", "")
        .replace(' ', '-');
  }
}
