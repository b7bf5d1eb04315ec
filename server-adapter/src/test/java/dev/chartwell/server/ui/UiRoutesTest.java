package dev.chartwell.server.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chartwell.server.ChartwellServer;
import dev.chartwell.server.TestServers;
import dev.chartwell.server.http.HttpTestClient;
import dev.chartwell.server.http.RawHttp;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The web UI's static files as the real server serves them. */
class UiRoutesTest {
  @TempDir static Path dir;
  static ChartwellServer server;
  static HttpTestClient http;

  @BeforeAll
  static void start() throws Exception {
    server = TestServers.start(dir);
    http = new HttpTestClient(server.port());
  }

  @AfterAll
  static void stop() throws IOException {
    server.close();
  }

  private static String index() throws IOException {
    try (InputStream in = UiRoutes.class.getClassLoader().getResourceAsStream("ui/index.html")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void rootServesTheIndexAsHtml() throws Exception {
    HttpResponse<String> r = http.send("GET", "/", null);
    assertEquals(200, r.statusCode());
    assertEquals("text/html; charset=utf-8", r.headers().firstValue("Content-Type").orElse(""));
    assertEquals(index(), r.body());
    assertTrue(r.headers().firstValue("ETag").orElse("").matches("W/\"[0-9a-f]{24}\""));
  }

  @Test
  void everyFileTheIndexNamesIsServedWithItsType() throws Exception {
    Matcher m = Pattern.compile("(?:src|href)=\"(/ui/[^\"]+)\"").matcher(index());
    int found = 0;
    while (m.find()) {
      String path = m.group(1);
      HttpResponse<String> r = http.send("GET", path, null);
      assertEquals(200, r.statusCode(), path);
      String type = r.headers().firstValue("Content-Type").orElse("");
      String expected = path.endsWith(".js") ? "text/javascript" : "text/css";
      assertTrue(type.startsWith(expected), path + ": " + type);
      assertEquals("nosniff", r.headers().firstValue("X-Content-Type-Options").orElse(""));
      found++;
    }
    assertEquals(4, found, "uPlot's script and style, the UI's style and its module");
  }

  @Test
  void everyModuleImportResolvesToAServedFile() throws Exception {
    Pattern imports = Pattern.compile("from '\\./([a-z]+\\.js)'");
    HttpResponse<String> app = http.send("GET", "/ui/app.js", null);
    List<String> seen = new java.util.ArrayList<>(List.of("app.js"));
    List<String> todo = new java.util.ArrayList<>(List.of(app.body()));
    while (!todo.isEmpty()) {
      Matcher m = imports.matcher(todo.remove(0));
      while (m.find()) {
        if (!seen.contains(m.group(1))) {
          seen.add(m.group(1));
          HttpResponse<String> r = http.send("GET", "/ui/" + m.group(1), null);
          assertEquals(200, r.statusCode(), m.group(1));
          todo.add(r.body());
        }
      }
    }
    assertTrue(seen.size() >= 8, "the UI's modules: " + seen);
  }

  @Test
  void aMatchingIfNoneMatchIsA304WithoutBody() throws Exception {
    HttpResponse<String> first = http.send("GET", "/ui/app.js", null);
    String etag = first.headers().firstValue("ETag").orElseThrow();
    HttpResponse<String> again = http.send("GET", "/ui/app.js", null, "If-None-Match", etag);
    assertEquals(304, again.statusCode());
    assertEquals("", again.body());
    assertEquals(etag, again.headers().firstValue("ETag").orElse(""));
    HttpResponse<String> strong =
        http.send("GET", "/ui/app.js", null, "If-None-Match", "\"x\", " + etag.substring(2));
    assertEquals(304, strong.statusCode(), "weak comparison, any tag of the list");
    HttpResponse<String> stale = http.send("GET", "/ui/app.js", null, "If-None-Match", "W/\"0\"");
    assertEquals(200, stale.statusCode());
    assertEquals(first.body(), stale.body());
    assertNotEquals(
        etag, http.send("GET", "/ui/style.css", null).headers().firstValue("ETag").orElse(""));
  }

  @Test
  void theUisPagesAnswerWithTheIndexSoThatTheyCanBeBookmarked() throws Exception {
    for (String path :
        List.of(
            "/dashboards",
            "/dashboards/svc",
            "/dashboards/svc/0123456789abcdef01234567",
            "/explore",
            "/explore/svc",
            "/explore/svc/src")) {
      HttpResponse<String> r = http.send("GET", path, null);
      assertEquals(200, r.statusCode(), path);
      assertEquals(index(), r.body(), path);
    }
    assertEquals(404, http.send("GET", "/dashboards/a/b/c", null).statusCode());
    assertEquals(404, http.send("GET", "/nothing-here", null).statusCode());
    assertEquals(404, http.send("GET", "/ui/missing.js", null).statusCode());
  }

  @Test
  void noPathLeavesTheUiFolder() throws Exception {
    for (String path :
        List.of(
            "/ui/../index.html",
            "/ui/..%2fui%2findex.html",
            "/ui/%2e%2e/META-INF/MANIFEST.MF",
            "/ui/vendor/%2e%2e%2fapp.js",
            "/ui/.hidden",
            "/ui/vendor/..",
            "/ui/%2e%2e",
            "/ui/..\\pom.xml",
            "/ui/vendor/%2E%2E/%2E%2E/dev/chartwell/server/Main.class")) {
      RawHttp.Reply r =
          RawHttp.send(
              server.port(),
              "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
      assertTrue(r.status() == 400 || r.status() == 404, path + " -> " + r.status());
      assertFalse(r.body().contains("uPlot") || r.body().contains("Main"), path);
    }
  }

  @Test
  void otherMethodsAre405() throws Exception {
    HttpResponse<String> r = http.send("POST", "/ui/app.js", "{}");
    assertEquals(405, r.statusCode());
    assertEquals("GET", r.headers().firstValue("Allow").orElse(""));
  }

  @Test
  void theWholeUiStaysUnder300KilobytesAndNamesTheUplotVersion() throws Exception {
    Path root = Path.of("src/main/resources/ui");
    long total;
    try (Stream<Path> files = Files.walk(root)) {
      total = files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
    }
    assertTrue(total < 300 * 1024, "UI bytes: " + total);
    String notice = Files.readString(root.resolve("vendor/README.md"));
    String script = Files.readString(root.resolve("vendor/uPlot.iife.min.js"));
    Matcher v = Pattern.compile("\\(v(\\d+\\.\\d+\\.\\d+)\\)").matcher(script);
    assertTrue(v.find());
    assertTrue(notice.contains("| " + v.group(1) + " |"), "README names uPlot " + v.group(1));
    assertTrue(Files.readString(root.resolve("vendor/uPlot.LICENSE.txt")).contains("MIT License"));
  }

  @Test
  void ifNoneMatchComparisonIsWeak() {
    assertTrue(UiRoutes.matches("W/\"a\"", "W/\"a\""));
    assertTrue(UiRoutes.matches("\"a\"", "W/\"a\""));
    assertTrue(UiRoutes.matches("*", "W/\"a\""));
    assertTrue(UiRoutes.matches("\"b\" , W/\"a\"", "W/\"a\""));
    assertFalse(UiRoutes.matches("\"b\"", "W/\"a\""));
  }
}
