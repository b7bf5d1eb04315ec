package dev.chartwell.server.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.chartwell.server.ChartwellServer;
import dev.chartwell.server.TestServers;
import dev.chartwell.server.http.HttpTestClient;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.interactions.Actions;

/**
 * The web UI in a real browser (Debian's Chromium, headless) against the real server with the demo:
 * sign in, open the demo dashboard by its bookmarkable URL, every tile draws with data and without
 * console errors, the range changes, the explorer searches, expands and zooms, a where that does
 * not parse shows its position, controls are labelled and a narrow window stacks the tiles. One
 * browser session serves the whole class. Skipped, loudly, when Chromium is missing.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class WebUiBrowserTest extends BrowserPage {
  static final String ADMIN = HttpTestClient.basic("ADMIN", "adminsecret1");
  static final ObjectMapper MAPPER = new ObjectMapper();

  @TempDir static Path dir;
  ChartwellServer server;
  String dashboardUrl;
  String missing; // why the tests are skipped, when they are

  @BeforeAll
  void start() throws Exception {
    Optional<Path[]> chromium = Chromium.find();
    if (chromium.isEmpty()) {
      String message =
          "SKIPPED: the web UI's browser tests need Debian's Chromium and its driver: apt-get"
              + " install -y "
              + Chromium.PACKAGES
              + " (or set CHROMIUM_BIN and CHROMEDRIVER_BIN)";
      System.err.println("\n*** " + message + " ***\n");
      missing = message;
      return;
    }
    server = TestServers.start(dir, "--demo");
    dashboardUrl =
        server.banner().stream()
            .filter(l -> l.startsWith("demo dashboard: "))
            .findFirst()
            .orElseThrow()
            .substring("demo dashboard: ".length());
    browser = Chromium.start(chromium.get(), 1280, 800);
    recordPolicyViolations();
  }

  /** Each test reports itself skipped, naming the packages, when the browser is missing. */
  @BeforeEach
  void needsTheBrowser() {
    assumeTrue(missing == null, missing);
  }

  @AfterAll
  void stop() throws IOException {
    if (browser != null) {
      browser.quit();
    }
    if (server != null) {
      server.close();
    }
  }

  @Test
  @Order(1)
  void signInThenTheBookmarkedDashboardDrawsEveryTile() throws Exception {
    browser.get(dashboardUrl);
    input("Key ID").sendKeys("ADMIN");
    input("Key secret").sendKeys("adminsecret1");
    button("Sign in").click();
    List<WebElement> tiles = tilesReady(5);
    assertEquals(URI.create(dashboardUrl).getPath(), URI.create(browser.getCurrentUrl()).getPath());
    for (WebElement tile : tiles) {
      assertDrawn(tile);
    }
    assertTrue(legendOf("line").contains("api"), "a legend entry per group: " + legendOf("line"));
    assertTrue(legendOf("stacked_bar").contains("error"), legendOf("stacked_bar"));
    String number = tile("number").findElement(By.cssSelector(".value")).getText();
    assertTrue(number.matches("[0-9.,]+ (ms|s|µs)"), "a duration from numberFormat: " + number);
    assertNotNull(js("return sessionStorage.getItem('chartwell.credentials')"));
    assertEquals(0L, js("return localStorage.length"), "the key stays in the session only");
    assertEquals("", js("return document.cookie"));
    assertNoConsoleErrors();

    browser.manage().window().setSize(new Dimension(1280, 1300));
    tilesReady(5);
    screenshot("dashboard.png");
    browser.manage().window().setSize(new Dimension(1280, 800));
  }

  @Test
  @Order(2)
  void changingTheRangeOrGranularityRedrawsTheTilesAndKeepsThemInTheUrl() {
    assertTrue(tile("line").findElement(By.cssSelector(".tile-note")).getText().startsWith("1m"));
    browser.findElement(By.cssSelector("select[name=range] option[value='6h']")).click();
    awaitTrue("the range in the URL", () -> browser.getCurrentUrl().contains("range=6h"));
    awaitTrue(
        "the line tile redrawn with 15m buckets",
        () -> noteOf("line").startsWith("15m") && tilesAreReady(5));
    browser.findElement(By.cssSelector("select[name=granularity] option[value='30m']")).click();
    awaitTrue(
        "fixed 30m buckets",
        () ->
            browser.getCurrentUrl().contains("granularity=30m")
                && noteOf("line").startsWith("30m")
                && tilesAreReady(5));
    for (WebElement tile : browser.findElements(By.cssSelector("[data-tile-id]"))) {
      assertDrawn(tile);
    }
    browser.navigate().refresh();
    tilesReady(5);
    assertTrue(noteOf("line").startsWith("30m"), "the bookmark keeps range and granularity");
    button("Live").click();
    awaitTrue("live mode in the URL", () -> browser.getCurrentUrl().contains("live=1"));
    assertEquals("true", button("Live").getAttribute("aria-pressed"));
    button("Live").click();
    assertNoConsoleErrors();
  }

  @Test
  @Order(3)
  void theExplorerShowsMatchingEventsNewestFirstExpandsThemAndZooms() throws IOException {
    browser.findElement(By.linkText("Explorer")).click();
    WebElement where = input("Where");
    where.sendKeys("SeverityText:error");
    button("Search").click();
    List<WebElement> rows = eventRows("SeverityText:error");
    List<String> header =
        browser.findElements(By.cssSelector(".x-events thead th")).stream()
            .map(e -> e.getAttribute("textContent"))
            .toList();
    assertEquals(List.of("Details", "Timestamp", "ServiceName", "SeverityText", "Body"), header);
    List<String> times = column(rows, 1);
    for (int i = 1; i < times.size(); i++) {
      assertTrue(times.get(i - 1).compareTo(times.get(i)) >= 0, "newest first: " + times);
    }
    assertTrue(column(rows, 3).stream().allMatch("error"::equals), column(rows, 3).toString());
    assertTrue(browser.findElement(By.cssSelector(".count-chart canvas")).isDisplayed());
    assertTrue(browser.getCurrentUrl().contains("where=SeverityText"), browser.getCurrentUrl());

    WebElement expand = rows.get(0).findElement(By.cssSelector("button.expand"));
    expand.click();
    assertEquals("true", expand.getAttribute("aria-expanded"));
    String detail = browser.findElement(By.cssSelector("tr.detail dl")).getText();
    assertTrue(detail.contains("LogAttributes.error.message"), detail);
    screenshot("explorer.png");

    WebElement over = browser.findElement(By.cssSelector(".count-chart .u-over"));
    new Actions(browser).moveToElement(over, over.getSize().width / 4, 5).click().perform();
    awaitTrue(
        "a bucket's range",
        () -> browser.getCurrentUrl().contains("from=") && browser.getCurrentUrl().contains("to="));
    assertEquals("custom", js("return document.querySelector('select[name=range]').value"));
    String from =
        URI.create(browser.getCurrentUrl()).getQuery().replaceAll(".*from=(\\d+).*", "$1");
    awaitTrue(
        "the zoomed range's events",
        () ->
            !browser
                .findElements(
                    By.cssSelector(
                        ".x-events[data-state=ready][data-start='" + from + "'] tr.event"))
                .isEmpty());

    // The same with the keyboard: from the last hour, the second bucket.
    browser.findElement(By.cssSelector("select[name=range] option[value='1h']")).click();
    awaitTrue("the last hour", () -> browser.getCurrentUrl().contains("range=1h"));
    WebElement plot =
        await(
            "the last hour's chart",
            () ->
                browser
                    .findElements(By.cssSelector(".count-chart[data-state=ready] .u-over"))
                    .stream()
                    .findFirst());
    plot.sendKeys(Keys.ARROW_RIGHT, Keys.ARROW_RIGHT, Keys.ENTER);
    awaitTrue(
        "a bucket's range from the keyboard", () -> browser.getCurrentUrl().contains("from="));
    long start =
        Long.parseLong(
            URI.create(browser.getCurrentUrl()).getQuery().replaceAll(".*from=(\\d+).*", "$1"));
    long end =
        Long.parseLong(
            URI.create(browser.getCurrentUrl()).getQuery().replaceAll(".*to=(\\d+).*", "$1"));
    assertEquals(60_000 - 1, end - start, "one 1m bucket of the last hour");
    assertNoConsoleErrors();
  }

  @Test
  @Order(4)
  void aWhereThatDoesNotParseShowsItsPosition() {
    WebElement where = input("Where");
    where.clear();
    where.sendKeys("ServiceName:(api", Keys.ENTER);
    WebElement error =
        await(
            "the parse error",
            () -> browser.findElements(By.cssSelector(".x-error .error")).stream().findFirst());
    assertTrue(error.getText().contains("column"), error.getText());
    String caret = browser.findElement(By.cssSelector(".where-caret")).getText();
    assertTrue(caret.startsWith("ServiceName:(api\n") && caret.endsWith("^"), caret);
    // The refused request is in the console as a failed resource (a 400); nothing else is.
    List<String> others = severe().stream().filter(m -> !m.contains("400 (Bad Request)")).toList();
    assertTrue(others.isEmpty(), others.toString());
    assertNoPolicyViolations();
  }

  @Test
  @Order(5)
  void everyControlIsLabelledKeyboardReachableAndANarrowWindowStacksTheTiles() throws IOException {
    browser.get(dashboardUrl + "?range=1h");
    tilesReady(5);
    Object unlabelled =
        js(
            "return [...document.querySelectorAll('select,input,button')].filter(e =>"
                + " e.offsetParent !== null && !(e.labels && e.labels.length) &&"
                + " !e.getAttribute('aria-label') && !e.textContent.trim()).map(e =>"
                + " e.outerHTML)");
    assertEquals(List.of(), unlabelled);
    js("document.activeElement.blur(); document.body.focus()");
    boolean reached = false;
    for (int i = 0; i < 20 && !reached; i++) {
      new Actions(browser).sendKeys(Keys.TAB).perform();
      reached = Boolean.TRUE.equals(js("return document.activeElement.name === 'range'"));
    }
    assertTrue(reached, "the time range picker is reached with Tab");

    browser.manage().window().setSize(new Dimension(480, 900));
    awaitTrue(
        "tiles stacked at full width",
        () ->
            Boolean.TRUE.equals(
                js(
                    "const g = document.querySelector('.grid').getBoundingClientRect().width;"
                        + " return [...document.querySelectorAll('[data-tile-id]')].every(t =>"
                        + " Math.abs(t.getBoundingClientRect().width - g) < 2)")));
    assertEquals(
        Boolean.TRUE,
        js("return document.documentElement.scrollWidth <= window.innerWidth"),
        "no sideways scrolling");
    tilesReady(5);
    awaitTrue(
        "every legend entry inside its tile",
        () ->
            Boolean.TRUE.equals(
                js(
                    "return [...document.querySelectorAll('[data-tile-id]')].every(t => {"
                        + " const b = t.getBoundingClientRect();"
                        + " return [...t.querySelectorAll('.u-legend .u-series')].every(s => {"
                        + " const r = s.getBoundingClientRect();"
                        + " return r.bottom <= b.bottom && r.right <= b.right; }); })")));
    screenshot("dashboard-narrow.png");
    browser.manage().window().setSize(new Dimension(1280, 800));
    assertNoConsoleErrors();
  }

  @Test
  @Order(6)
  void markdownSearchEmptyAndErrorTilesShowWhatTheyHold() throws Exception {
    String serviceId = fact("demo service id: ");
    String sourceId = fact("demo source id: ");
    HttpTestClient http = new HttpTestClient(server.port());
    String base = "/v1/organizations/" + TestServers.ORG + "/services/" + serviceId + "/clickstack";
    String doomed =
        created(
            http,
            base + "/sources",
            "{\"name\":\"doomed\",\"kind\":\"log\",\"from\":{\"databaseName\":\"default\","
                + "\"tableName\":\"demo-logs\"},\"timestampValueExpression\":\"Timestamp\","
                + "\"implicitColumnExpression\":\"Body\"}");
    String count =
        "\"select\":[{\"aggFn\":\"count\",\"where\":\"%s\",\"whereLanguage\":\"lucene\"}]";
    String dashboard =
        created(
            http,
            base + "/dashboards",
            "{\"name\":\"States\",\"tiles\":["
                + tile(
                    "Notes",
                    0,
                    "{\"displayType\":\"markdown\",\"markdown\":\"# Read me\\n\\n"
                        + "- **bold** item\\n- <script>alert(1)</script>\"}")
                + ","
                + tile(
                    "Errors",
                    6,
                    "{\"displayType\":\"search\",\"sourceId\":\""
                        + sourceId
                        + "\",\"select\":\"Timestamp, ServiceName, Body\",\"where\":\"SeverityText:error\","
                        + "\"whereLanguage\":\"lucene\"}")
                + ","
                + tile(
                    "Nothing",
                    12,
                    "{\"displayType\":\"line\",\"sourceId\":\""
                        + sourceId
                        + "\","
                        + count.formatted("ServiceName:nothing-here")
                        + "}")
                + ","
                + tile(
                    "Broken",
                    18,
                    "{\"displayType\":\"number\",\"sourceId\":\""
                        + doomed
                        + "\","
                        + count.formatted("")
                        + "}")
                + "]}");
    HttpResponse<String> gone =
        http.send("DELETE", base + "/sources/" + doomed, null, "Authorization", ADMIN);
    assertEquals(200, gone.statusCode(), gone.body());

    browser.get(
        server.banner().get(0).replace("Chartwell listening on ", "")
            + "/dashboards/"
            + serviceId
            + "/"
            + dashboard);
    awaitTrue(
        "every tile settled",
        () ->
            browser.findElements(By.cssSelector("[data-tile-id]")).size() == 4
                && browser
                    .findElements(By.cssSelector("[data-tile-id][data-state=loading]"))
                    .isEmpty());
    WebElement notes = tile("markdown");
    assertEquals("ready", notes.getAttribute("data-state"), notes.getText());
    assertEquals("Read me", notes.findElement(By.cssSelector(".markdown h2")).getText());
    assertEquals("bold", notes.findElement(By.cssSelector(".markdown strong")).getText());
    assertTrue(notes.findElements(By.cssSelector(".markdown script")).isEmpty(), "no HTML passes");
    WebElement search = tile("search");
    assertEquals("ready", search.getAttribute("data-state"), search.getText());
    List<WebElement> rows = search.findElements(By.cssSelector("tr.event"));
    assertEquals(50, rows.size());
    assertTrue(column(rows, 3).stream().allMatch(b -> b.contains("failed")), "error bodies");
    WebElement empty = tile("line");
    assertEquals("empty", empty.getAttribute("data-state"));
    assertEquals(
        "No data in this time range", empty.findElement(By.cssSelector(".state")).getText());
    WebElement broken = tile("number");
    assertEquals("error", broken.getAttribute("data-state"));
    String text = broken.findElement(By.cssSelector(".error[role=alert]")).getText();
    assertTrue(text.contains("NOT_FOUND") && text.contains(doomed), text);
    // The error tile's failed request is in the console (a 404); nothing else is.
    List<String> others = severe().stream().filter(m -> !m.contains("404 (Not Found)")).toList();
    assertTrue(others.isEmpty(), others.toString());
    assertNoPolicyViolations();
  }

  /**
   * The page runs under the server's content security policy, and nothing of the UI needs what it
   * refuses: every flow above recorded no violation, the pie's legend keeps its colours (set
   * through the CSSOM), and an inline script and an inline style put into the page are refused.
   */
  @Test
  @Order(7)
  void theContentSecurityPolicyIsInForceAndTheUiNeedsNothingItRefuses() {
    browser.get(dashboardUrl + "?range=1h");
    tilesReady(5);
    Object swatch =
        js(
            "return getComputedStyle(document.querySelector("
                + "'[data-display-type=pie] .legend .swatch')).backgroundColor");
    assertTrue(
        swatch instanceof String c && c.startsWith("rgb") && !c.equals("rgba(0, 0, 0, 0)"),
        "the pie legend's swatch is coloured: " + swatch);
    assertNoConsoleErrors();

    js(
        "window.inlineProbe = 'not run'; const s = document.createElement('script');"
            + " s.textContent = \"window.inlineProbe = 'ran'\"; document.body.appendChild(s);"
            + " const d = document.createElement('div'); d.className = 'inline-style-probe';"
            + " d.setAttribute('style', 'width: 123px'); document.body.appendChild(d);");
    awaitTrue("both refusals recorded", () -> policyViolations().size() == 2);
    assertEquals("not run", js("return window.inlineProbe"));
    assertEquals(
        Boolean.FALSE,
        js("return document.querySelector('.inline-style-probe').offsetWidth === 123"));
    List<String> refused = policyViolations();
    assertTrue(refused.get(0).startsWith("script-src-elem refused inline"), refused.toString());
    assertTrue(refused.get(1).startsWith("style-src-attr refused inline"), refused.toString());
    js("sessionStorage.removeItem('" + VIOLATIONS + "')");
    severe(); // the console's two refusals, read and so cleared
  }

  // --- helpers

  private String fact(String prefix) {
    return server.banner().stream()
        .filter(l -> l.startsWith(prefix))
        .findFirst()
        .orElseThrow()
        .substring(prefix.length());
  }

  private static String tile(String name, int x, String config) {
    return "{\"name\":\""
        + name
        + "\",\"x\":"
        + x
        + ",\"y\":0,\"w\":6,\"h\":6,\"config\":"
        + config
        + "}";
  }

  /** Creates a resource through the Cloud API; its id. */
  private static String created(HttpTestClient http, String path, String body) throws Exception {
    HttpResponse<String> r = http.send("POST", path, body, "Authorization", ADMIN);
    assertEquals(200, r.statusCode(), r.body());
    return MAPPER.readTree(r.body()).get("result").get("id").asText();
  }
}
