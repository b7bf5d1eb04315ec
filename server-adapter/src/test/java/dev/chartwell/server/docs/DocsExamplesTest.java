package dev.chartwell.server.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.chartwell.server.ServerConfig;
import dev.chartwell.server.docs.DocExamples.Example;
import dev.chartwell.server.docs.DocExamples.Kind;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every example of README.md and docs/*.md, run or checked as docs/README.md ("Examples that are
 * tested") describes: each document's {@code bash} blocks run in order in one shell, in a fresh
 * folder, against the server the document starts (a real one, on a free loopback port); each output
 * shown is compared with what its command printed; bodies and configurations parse; a block that
 * fits none of these fails with its file and line. The links between the documents are checked by
 * {@link DocsLinksTest} beside it.
 */
class DocsExamplesTest {
  @TempDir Path tmp;

  /** README.md and the documents under docs/. */
  static List<Path> documents() throws IOException {
    return DocsLinksTest.documents().stream()
        .filter(
            p ->
                p.equals(DocsLinksTest.ROOT.resolve("README.md"))
                    || p.getParent().equals(DocsLinksTest.ROOT.resolve("docs")))
        .toList();
  }

  @TestFactory
  Stream<DynamicTest> everyExampleOfTheDocsRunsAsWritten() throws IOException {
    List<Path> docs = documents();
    assertTrue(docs.size() > 15, "documents: " + docs);
    String only = System.getProperty("docs.only", "");
    return docs.stream()
        .filter(d -> only.isEmpty() || d.endsWith(only))
        .map(
            doc ->
                DynamicTest.dynamicTest(
                    DocsLinksTest.ROOT.relativize(doc).toString(), () -> run(doc)));
  }

  private void run(Path doc) throws Exception {
    List<Example> examples = DocExamples.classify(DocBlock.of(doc, Files.readString(doc)));
    List<String> unclassified =
        examples.stream()
            .filter(e -> e.problem() != null)
            .map(e -> e.block().where() + ": " + e.problem())
            .toList();
    assertEquals(List.of(), unclassified, "blocks the docs test cannot check");
    boolean runs = examples.stream().anyMatch(e -> e.kind() == Kind.RUN);
    if (runs) {
      assumeTrue(
          Files.isExecutable(Path.of("/usr/bin/curl"))
              && Files.isExecutable(Path.of("/usr/bin/jq")),
          "SKIPPED: the docs' examples need curl and jq (.ci/run installs them)");
    }
    Path dir = Files.createDirectories(tmp.resolve(doc.getFileName().toString()));
    long started = System.nanoTime();
    OutputMatch match = new OutputMatch();
    DocServer server = null;
    String printed = null;
    try (DocShell shell = new DocShell(dir, Map.of(), prelude())) {
      for (Example e : examples) {
        DocBlock b = e.block();
        String problem = null;
        try {
          switch (e.kind()) {
            case SERVE -> {
              if (server != null) {
                server.close();
                server = null;
              }
              DocExamples.Start start = DocExamples.flags(DocExamples.commands(b.text()).get(0));
              server = DocServer.start(start.flags(), start.env(), dir);
              printed = server.printed;
            }
            case FLAGS -> {
              DocExamples.Start start = DocExamples.flags(DocExamples.commands(b.text()).get(0));
              ServerConfig.parse(start.flags().toArray(String[]::new), start.env());
              printed = "";
            }
            case RUN -> {
              String script = match.apply(server == null ? b.text() : server.apply(b.text()));
              printed =
                  shell.run("CHARTWELL_DOCS_ERRORS=" + (b.has("errors") ? 1 : 0) + "\n" + script);
            }
            case OUTPUT -> {
              String shown = server == null ? b.text() : server.apply(b.text());
              problem =
                  b.language().equals("json")
                      ? match.json(shown, printed)
                      : match.text(shown, printed);
              if (problem != null) {
                problem += "\n--- the command printed:\n" + printed;
              }
            }
            case BODY -> problem = ConfigSyntax.check("json", b.text());
            case NOT_RUN -> problem = ConfigSyntax.check(b.language(), b.text());
            case JAVA -> problem = compiledIn(b);
          }
        } catch (AssertionError | Exception x) {
          problem = x.toString();
        }
        if (problem != null) {
          throw new AssertionError(
              b.where() + " (" + e.kind() + "): " + problem + "\n--- the block:\n" + b.text());
        }
      }
    } finally {
      if (server != null) {
        server.close();
      }
    }
    System.out.printf(
        "docs test: %s: %s in %.1f s%n",
        DocsLinksTest.ROOT.relativize(doc), counts(examples), (System.nanoTime() - started) / 1e9);
  }

  /**
   * A java block after {@code <!-- compiled in: PATH -->}: each of its lines is a line of that
   * file, in order (indentation aside). java-api.md's snippets are JavaApiSnippetsTest's.
   */
  static String compiledIn(DocBlock b) throws IOException {
    java.util.regex.Matcher m = DocExamples.COMPILED_IN.matcher(b.before());
    if (!m.find()) {
      return null; // a java-api.md snippet: the engine's JavaApiSnippetsTest checks it
    }
    Path source = DocsLinksTest.ROOT.resolve(m.group(1));
    if (!Files.exists(source)) {
      return "no such file: " + m.group(1);
    }
    List<String> lines = Files.readAllLines(source).stream().map(String::strip).toList();
    int at = 0;
    for (String line : b.text().split("\n")) {
      if (line.isBlank() || line.strip().equals("...")) {
        continue; // ... elides lines of the file
      }
      int found = lines.subList(at, lines.size()).indexOf(line.strip());
      if (found < 0) {
        return "'" + line.strip() + "' is not a line of " + m.group(1) + " (in this order)";
      }
      at += found + 1;
    }
    return null;
  }

  /** Blocks per kind, for the log. */
  static String counts(List<Example> examples) {
    Map<Kind, Long> n =
        examples.stream()
            .collect(
                Collectors.groupingBy(
                    Example::kind, () -> new EnumMap<>(Kind.class), Collectors.counting()));
    return n.isEmpty() ? "no blocks" : n.toString();
  }

  /**
   * The shell's first commands: {@code java -jar .../chartwell-server.jar COMMAND} (ingest, backup,
   * restore, --help, --version) runs the server's main class from the test's class path in a JVM of
   * its own, as the jar would (the jar is made after the tests).
   */
  private static String prelude() {
    List<String> jvm = new ArrayList<>();
    jvm.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
        .filter(a -> a.startsWith("--add-"))
        .forEach(jvm::add);
    jvm.addAll(
        List.of(
            "-XX:TieredStopAtLevel=1",
            "-Dchronicle.analytics.disable=true",
            "-cp",
            System.getProperty("java.class.path"),
            "dev.chartwell.server.Main"));
    String command =
        jvm.stream().map(w -> "'" + w.replace("'", "'\\''") + "'").collect(Collectors.joining(" "));
    return "java() {\n"
        + "  if [[ ${1-} == -jar && ${2-} == *chartwell-server.jar ]]; then\n"
        + "    shift 2\n"
        + "    local args=() a\n"
        + "    for a in \"$@\"; do\n"
        + "      case $a in /*) a=$PWD$a ;; --*=/*) a=${a%%=*}=$PWD/${a#*=/} ;; esac\n"
        + "      args+=(\"$a\")\n"
        + "    done\n"
        + "    set -- \"${args[@]}\"\n"
        + "    "
        + command
        + " \"$@\"\n"
        + "  else\n"
        + "    command java \"$@\"\n"
        + "  fi\n"
        + "}\n"
        + "curl() {\n"
        + "  if [[ ${CHARTWELL_DOCS_ERRORS-0} == 1 ]]; then command curl \"$@\"; return; fi\n"
        + "  local out rc=0\n"
        + "  out=$(mktemp)\n"
        + "  command curl --fail-with-body \"$@\" >\"$out\" || rc=$?\n"
        + "  cat \"$out\"\n"
        + "  ((rc == 0)) || echo \"curl $* failed ($rc): $(cat \"$out\")\" >&2\n"
        + "  rm -f \"$out\"\n"
        + "  return $rc\n"
        + "}\n";
  }
}
