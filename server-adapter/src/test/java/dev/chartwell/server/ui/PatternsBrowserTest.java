package dev.chartwell.server.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.WebElement;

/**
 * The explorer's Patterns view in a real browser (Debian's Chromium, headless) against the real
 * server: lines of three known templates sent over OTLP come back as their three patterns with
 * their counts, and a click on one narrows the events to exactly its lines. Skipped, loudly, when
 * Chromium is missing.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PatternsBrowserTest extends ServiceBrowserPage {

  @TempDir static Path dir;
  String logs;
  long t0; // the first line's time, epoch ms

  @BeforeAll
  void start() throws Exception {
    if (!startWithService(dir, "Patterns")) {
      return;
    }
    t0 = System.currentTimeMillis() - 10 * 60_000L;
    HttpResponse<String> r =
        http.send(
            "POST",
            "/v1/logs",
            logRecords(),
            "Authorization",
            "Bearer " + token,
            "Content-Type",
            "application/json");
    assertEquals(200, r.statusCode(), r.body());
    for (JsonNode s : cloud("GET", SERVICES + "/" + serviceId + "/clickstack/sources", null)) {
      if (s.get("kind").asText().equals("log")) {
        logs = s.get("id").asText();
      }
    }
    browser = Chromium.start(chromium, 1280, 900);
    recordPolicyViolations();
  }

  /** 60 lines a second apart: 30 logins, 20 payments, 10 disk usages, interleaved. */
  private String logRecords() {
    List<String> records = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      String body =
          switch (i % 6) {
            case 0, 2, 4 -> "user " + (1000 + i) + " logged in from 10.0.0." + i;
            case 1, 3 -> "payment " + (7000 + i) + " authorized amount " + i * 3 + " cents";
            default -> "disk usage at " + (40 + i) + " percent on volume " + i % 4;
          };
      records.add(
          String.format(
              Locale.ROOT,
              "{\"resource\":{\"attributes\":[{\"key\":\"service.name\",\"value\":{\"stringValue\":"
                  + "\"api\"}}]},\"scopeLogs\":[{\"logRecords\":[{\"timeUnixNano\":\"%d\","
                  + "\"severityText\":\"INFO\",\"body\":{\"stringValue\":\"%s\"}}]}]}",
              (t0 + i * 1000L) * 1_000_000L,
              body));
    }
    return "{\"resourceLogs\":[" + String.join(",", records) + "]}";
  }

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

  private List<WebElement> patternRows() {
    return await(
        "the patterns",
        () -> {
          List<WebElement> rows =
              browser.findElements(By.cssSelector(".x-patterns[data-state=ready] tr.pattern"));
          return rows.isEmpty() ? Optional.empty() : Optional.of(rows);
        });
  }

  @Test
  void thePatternsWithTheirCountsAndAClickedOneNarrowsTheEventsToItsLines() throws IOException {
    String range = "from=" + (t0 - 60_000) + "&to=" + (t0 + 120_000);
    browser.get(base() + "/explore/" + serviceId + "/" + logs + "?" + range);
    input("Key ID").sendKeys("ADMIN");
    input("Key secret").sendKeys("adminsecret1");
    button("Sign in").click();
    eventRows("");
    button("Patterns").click();
    List<WebElement> rows = patternRows();
    List<String> shown =
        rows.stream()
            .map(
                r ->
                    r.findElement(By.cssSelector("td.num")).getAttribute("data-count")
                        + " "
                        + r.findElement(By.cssSelector("button.pattern-pick")).getText())
            .toList();
    assertEquals(
        List.of(
            "30 user <NUM> logged in from <IP>",
            "20 payment <NUM> authorized amount <NUM> cents",
            "10 disk usage at <NUM> percent on volume <NUM>"),
        shown);
    assertTrue(browser.getCurrentUrl().contains("view=patterns"), browser.getCurrentUrl());
    WebElement note = browser.findElement(By.cssSelector(".x-patterns-note"));
    assertTrue(note.getText().contains("3 patterns in 60 events"), note.getText());
    assertEquals(3, browser.findElements(By.cssSelector(".x-patterns svg.spark")).size());
    browser.manage().window().setSize(new Dimension(1280, 1000));
    js("window.scrollTo(0, document.querySelector('.x-body').offsetTop - 10)");
    screenshot("patterns.png");
    browser.manage().window().setSize(new Dimension(1280, 900));
    rows.get(1).findElement(By.cssSelector("button.pattern-pick")).click();
    List<WebElement> events = eventRows("payment");
    assertEquals(20, events.size());
    for (WebElement e : events) {
      assertTrue(e.getText().contains("payment "), e.getText());
    }
    assertTrue(browser.findElement(By.id("x-where")).getAttribute("value").equals("payment"));
    assertTrue(!browser.getCurrentUrl().contains("view=patterns"), browser.getCurrentUrl());
    button("Patterns").click();
    awaitTrue("the patterns of the payments", () -> patternRows().size() == 1);
    WebElement sample = browser.findElement(By.cssSelector(".x-patterns button.pattern-sample"));
    String text = browser.findElement(By.cssSelector(".x-patterns .sample")).getText();
    assertEquals("payment 7057 authorized amount 171 cents", text, "line 57, the newest payment");
    sample.click();
    // Every line read is a payment now: the pattern's where adds no word to the search's.
    String where = "(payment)";
    awaitTrue(
        "the events within a second of the sample",
        () -> eventRows(where).size() == 1 && browser.getCurrentUrl().contains("from="));
    String event = eventRows(where).get(0).getText();
    assertTrue(event.contains(text), event);
    assertNoConsoleErrors();
    assertNoPolicyViolations();
  }

  private String base() {
    return "http://127.0.0.1:" + server.port();
  }
}
