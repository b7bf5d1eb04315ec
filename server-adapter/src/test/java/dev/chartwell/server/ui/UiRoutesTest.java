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

  private static final String CSP =
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
          + " connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self';"
          + " frame-ancestors 'none'";

  @Test
  void everyUiAnswerCarriesTheSecurityHeaders() throws Exception {
    String etag = http.send("GET", "/ui/app.js", null).headers().firstValue("ETag").orElseThrow();
    List<HttpResponse<String>> answers =
        List.of(
            http.send("GET", "/", null),
            http.send("GET", "/dashboards/svc/0123456789abcdef01234567", null),
            http.send("GET", "/explore/svc/src", null),
            http.send("GET", "/ui/app.js", null),
            http.send("GET", "/ui/style.css", null),
            http.send("GET", "/ui/vendor/uPlot.iife.min.js", null),
            http.send("GET", "/ui/vendor/uPlot.min.css", null),
            http.send("GET", "/ui/app.js", null, "If-None-Match", etag));
    for (HttpResponse<String> r : answers) {
      String what = r.uri().getPath() + " " + r.statusCode();
      assertTrue(r.statusCode() == 200 || r.statusCode() == 304, what);
      assertEquals(List.of(CSP), r.headers().allValues("Content-Security-Policy"), what);
      assertEquals(List.of("DENY"), r.headers().allValues("X-Frame-Options"), what);
      assertEquals(List.of("no-referrer"), r.headers().allValues("Referrer-Policy"), what);
      assertEquals(List.of("nosniff"), r.headers().allValues("X-Content-Type-Options"), what);
      assertEquals(List.of(), r.headers().allValues("Strict-Transport-Security"), what);
    }
  }

  @Test
  void plainHttpNeverSendsHstsWhateverTheHost() throws Exception {
    for (String host : List.of("chartwell.example.com", "203.0.113.7:8080", "127.0.0.1")) {
      RawHttp.Reply r =
          RawHttp.send(
              server.port(), "GET / HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n");
      assertEquals(200, r.status(), host);
      assertEquals(CSP, r.header("Content-Security-Policy"), host);
      assertEquals(null, r.header("Strict-Transport-Security"), host);
    }
  }

  @Test
  void hstsOnlyOverTlsToAHostThatIsNotLoopback() {
    for (String host :
        List.of(
            "chartwell.example.com",
            "Chartwell.Example.COM:8443",
            "chartwell.example.com.",
            "203.0.113.7",
            "10.0.0.5:8080",
            "[2001:db8::1]:8443",
            "localhost.example.com",
            "127.example.com")) {
      assertTrue(SecurityHeaders.hsts(true, host), host);
      assertFalse(SecurityHeaders.hsts(false, host), "plain HTTP: " + host);
      assertEquals(
          "max-age=31536000",
          SecurityHeaders.forUi(true, host).get("Strict-Transport-Security"),
          host);
    }
    for (String host :
        List.of(
            "localhost",
            "LOCALHOST:8443",
            "localhost.",
            "app.localhost:8080",
            "127.0.0.1",
            "127.0.0.1:8443",
            "127.12.0.9",
            "[::1]",
            "[::1]:8443",
            "::1",
            "[0:0:0:0:0:0:0:1]:8443",
            "[::ffff:127.0.0.1]",
            "0.0.0.0:8443",
            "[::]",
            "",
            " ")) {
      assertFalse(SecurityHeaders.hsts(true, host), host);
      assertFalse(SecurityHeaders.forUi(true, host).containsKey("Strict-Transport-Security"));
    }
    assertFalse(SecurityHeaders.hsts(true, null), "no host named");
  }

  /**
   * The content security policy refuses inline script and style: no UI file may need them. A {@code
   * style} attribute in markup (also built as a string for {@code innerHTML}), a {@code <style>}
   * element, a {@code <script>} without {@code src}, an {@code on...=} handler attribute or a
   * {@code javascript:} URL would be refused by the browser.
   */
  @Test
  void noUiFileNeedsInlineScriptOrStyle() throws IOException {
    Pattern refused =
        Pattern.compile(
            "style\\s*=\\s*[\"'`$]|<style|<script(?![^>]*\\bsrc=)[^>]*>|\\son[a-z]+\\s*=\\s*[\"']"
                + "|javascript:|setAttribute\\(\\s*['\"]style",
            Pattern.CASE_INSENSITIVE);
    List<Path> files;
    try (Stream<Path> walk = Files.walk(Path.of("src/main/resources/ui"))) {
      files =
          walk.filter(p -> p.toString().matches(".*\\.(html|js)$"))
              .filter(p -> !p.getFileName().toString().startsWith("uPlot"))
              .toList();
    }
    assertTrue(files.size() >= 10, files.toString());
    for (Path f : files) {
      Matcher m = refused.matcher(Files.readString(f));
      if (m.find()) {
        throw new AssertionError(f + " needs what the policy refuses: " + m.group());
      }
    }
    // uPlot sets its styles through the CSSOM (allowed) and builds no markup from strings.
    String uplot = Files.readString(Path.of("src/main/resources/ui/vendor/uPlot.iife.min.js"));
    assertFalse(uplot.contains("innerHTML") || uplot.contains("setAttribute(\"style"));
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
