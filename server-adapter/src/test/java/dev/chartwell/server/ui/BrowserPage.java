package dev.chartwell.server.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.stream.Collectors;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;

/**
 * What the browser tests read from and do to the UI's page: find controls by their labels, wait for
 * tiles and rows, check that a tile drew its data, read the console.
 */
abstract class BrowserPage {
  /** How long any one wait may take. */
  static final Duration WAIT = Duration.ofSeconds(40);

  /** The browser session, shared by a test class. */
  protected ChromeDriver browser;

  /** Saves what the browser shows under {@code target/}. */
  protected void screenshot(String name) throws IOException {
    Path shot = Path.of("target", name);
    Files.createDirectories(shot.getParent());
    Files.write(shot, browser.getScreenshotAs(OutputType.BYTES));
  }

  protected Object js(String script) {
    return ((JavascriptExecutor) browser).executeScript(script);
  }

  protected WebElement input(String label) {
    WebElement l =
        await(
            "the label " + label,
            () ->
                browser
                    .findElements(By.xpath("//label[normalize-space()='" + label + "']"))
                    .stream()
                    .filter(WebElement::isDisplayed)
                    .findFirst());
    return browser.findElement(By.id(l.getAttribute("for")));
  }

  protected WebElement button(String text) {
    return await(
        "the button " + text,
        () ->
            browser.findElements(By.xpath("//button[normalize-space()='" + text + "']")).stream()
                .filter(WebElement::isDisplayed)
                .findFirst());
  }

  protected WebElement tile(String displayType) {
    return browser.findElement(By.cssSelector("[data-display-type='" + displayType + "']"));
  }

  protected String legendOf(String displayType) {
    return tile(displayType).findElement(By.cssSelector(".u-legend")).getText();
  }

  protected String noteOf(String displayType) {
    return tile(displayType).findElement(By.cssSelector(".tile-note")).getText();
  }

  protected boolean tilesAreReady(int n) {
    List<WebElement> tiles = browser.findElements(By.cssSelector("[data-tile-id]"));
    for (WebElement t : tiles) {
      if ("error".equals(t.getAttribute("data-state"))) {
        throw new AssertionError("tile " + t.getAttribute("data-tile-id") + ": " + t.getText());
      }
    }
    return tiles.size() == n
        && tiles.stream().allMatch(t -> "ready".equals(t.getAttribute("data-state")));
  }

  protected List<WebElement> tilesReady(int n) {
    awaitTrue(n + " tiles drawn", () -> tilesAreReady(n));
    return browser.findElements(By.cssSelector("[data-tile-id]"));
  }

  /** The event rows once the results of {@code where} are shown. */
  protected List<WebElement> eventRows(String where) {
    return await(
        "event rows of " + where,
        () -> {
          List<WebElement> rows =
              browser.findElements(
                  By.cssSelector(
                      ".x-events[data-state=ready][data-where='" + where + "'] tr.event"));
          return rows.isEmpty() ? Optional.empty() : Optional.of(rows);
        });
  }

  protected static List<String> column(List<WebElement> rows, int index) {
    return rows.stream()
        .map(r -> r.findElements(By.tagName("td")).get(index).getAttribute("textContent"))
        .toList();
  }

  /** A tile has drawn its data: coloured pixels on a chart's canvas, SVG shapes, table rows. */
  protected void assertDrawn(WebElement tile) {
    String type = tile.getAttribute("data-display-type");
    switch (type) {
      case "line", "stacked_bar" -> {
        Object coloured =
            ((JavascriptExecutor) browser)
                .executeScript(
                    "const c = arguments[0].querySelector('canvas');"
                        + " const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;"
                        + " let n = 0; for (let i = 0; i < d.length; i += 4) {"
                        + " const r = d[i], g = d[i+1], b = d[i+2];"
                        + " if (d[i+3] > 0 && Math.max(r,g,b) - Math.min(r,g,b) > 60) n++; }"
                        + " return n;",
                    tile);
        assertTrue(((Number) coloured).longValue() > 500, type + ": coloured pixels " + coloured);
        assertTrue(tile.findElements(By.cssSelector(".u-legend .u-series")).size() >= 2, type);
      }
      case "pie" -> {
        assertFalse(tile.findElements(By.cssSelector("svg path, svg circle")).isEmpty(), type);
        assertFalse(tile.findElements(By.cssSelector(".legend li")).isEmpty(), type);
      }
      case "number" -> {
        assertFalse(tile.findElement(By.cssSelector(".value")).getText().isBlank(), type);
        String points = tile.findElement(By.cssSelector("svg polyline")).getAttribute("points");
        assertTrue(points.split(" ").length > 10, "a sparkline: " + points);
      }
      case "table" -> {
        List<WebElement> rows = tile.findElements(By.cssSelector("tbody tr"));
        assertEquals(6, rows.size(), "one row per route");
      }
      default -> throw new AssertionError("unexpected tile type " + type);
    }
  }

  protected List<String> severe() {
    return browser.manage().logs().get(LogType.BROWSER).getAll().stream()
        .filter(e -> e.getLevel().intValue() >= Level.SEVERE.intValue())
        .map(LogEntry::getMessage)
        .collect(Collectors.toList());
  }

  /** Where the page's content security policy violations are kept, across navigations. */
  static final String VIOLATIONS = "chartwell.test.policy-violations";

  /**
   * Records every {@code securitypolicyviolation} of every page the browser opens from now on, in
   * the tab's {@code sessionStorage} (so that a navigation keeps them): the script runs before any
   * of the page's own.
   */
  protected void recordPolicyViolations() {
    browser.executeCdpCommand(
        "Page.addScriptToEvaluateOnNewDocument",
        Map.of(
            "source",
            "document.addEventListener('securitypolicyviolation', (e) => {"
                + " try { const k = '"
                + VIOLATIONS
                + "'; const seen = JSON.parse(sessionStorage.getItem(k) || '[]');"
                + " seen.push(e.effectiveDirective + ' refused ' + (e.blockedURI || '?')"
                + " + ' at ' + e.sourceFile + ':' + e.lineNumber + ':' + e.columnNumber);"
                + " sessionStorage.setItem(k, JSON.stringify(seen)); }"
                + " catch (x) { /* an opaque origin has no storage */ } }, true);"));
  }

  /** The policy violations recorded since the tab opened (or since they were last cleared). */
  @SuppressWarnings("unchecked")
  protected List<String> policyViolations() {
    Object v =
        js(
            "try { return JSON.parse(sessionStorage.getItem('"
                + VIOLATIONS
                + "') || '[]'); } catch (x) { return []; }");
    return (List<String>) v;
  }

  /** No policy violations since the last check (each check starts afresh). */
  protected void assertNoPolicyViolations() {
    List<String> violations = policyViolations();
    js("sessionStorage.removeItem('" + VIOLATIONS + "')");
    assertTrue(violations.isEmpty(), "content security policy violations: " + violations);
  }

  /** No console errors (a refused inline script or style is one) and no policy violations. */
  protected void assertNoConsoleErrors() {
    List<String> errors = severe();
    assertTrue(errors.isEmpty(), "console errors: " + errors);
    assertNoPolicyViolations();
  }

  protected void awaitTrue(String what, Supplier<Boolean> condition) {
    await(what, () -> condition.get() ? Optional.of(Boolean.TRUE) : Optional.empty());
  }

  protected <T> T await(String what, Supplier<Optional<T>> probe) {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (true) {
      Optional<T> v;
      try {
        v = probe.get();
      } catch (StaleElementReferenceException e) {
        v = Optional.empty(); // the page redrew under the probe: look again
      }
      if (v.isPresent()) {
        return v.get();
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            "timed out waiting for "
                + what
                + " at "
                + browser.getCurrentUrl()
                + "; console: "
                + severe());
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted", e);
      }
    }
  }
}
