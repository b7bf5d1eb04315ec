package dev.chartwell.server.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.chartwell.server.hyperdx.OtlpTraces;
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
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.WebElement;

/**
 * From chart to cause in a real browser (Debian's Chromium, headless) against the real server with
 * events and traces sent over OTLP: a trace's waterfall (10,000 spans, their nesting, a span's
 * details, collapsing), the way from a log line to its trace and from a span to its logs. One
 * browser session serves the class. Skipped, loudly, when Chromium is missing.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ExploreBrowserTest extends ServiceBrowserPage {
  static final String BIG = "5b8efff798038103d269b633813fc60c";
  static final String SMALL = "0af7651916cd43dd8448eb211c80319c";
  static final int BIG_SPANS = 10_000;

  @TempDir static Path dir;
  String logs;
  String traces;
  long t0; // the events' time, epoch ms

  @BeforeAll
  void start() throws Exception {
    if (!startWithService(dir, "Explore")) {
      return;
    }
    t0 = System.currentTimeMillis() - 10 * 60_000L;
    otlp("/v1/logs", logRecords());
    long nanos = t0 * 1_000_000L;
    for (String body :
        OtlpTraces.trace(BIG, BIG_SPANS, 4, nanos, List.of("api", "db", "cache"), 2500)) {
      otlp("/v1/traces", body);
    }
    for (String body : OtlpTraces.trace(SMALL, 7, 2, nanos, List.of("api", "db"), 10)) {
      otlp("/v1/traces", body);
    }
    for (JsonNode s : cloud("GET", SERVICES + "/" + serviceId + "/clickstack/sources", null)) {
      if (s.get("kind").asText().equals("trace")) {
        traces = s.get("id").asText();
      } else if (s.get("kind").asText().equals("log")) {
        logs = s.get("id").asText();
      }
    }
    browser = Chromium.start(chromium, 1280, 800);
    recordPolicyViolations();
  }

  /** 60 log lines a second apart, from three services; those of "api" carry the small trace. */
  private String logRecords() {
    List<String> records = new ArrayList<>();
    String[] services = {"api", "db", "web"};
    for (int i = 0; i < 60; i++) {
      String service = services[i % 3];
      long nanos = (t0 + i * 1000L) * 1_000_000L;
      String body =
          i % 2 == 0
              ? "user " + (1000 + i) + " logged in from 10.0.0." + i
              : "cache miss for key k" + i + " after " + (i * 7) + "ms";
      records.add(
          String.format(
              Locale.ROOT,
              "{\"resource\":{\"attributes\":[{\"key\":\"service.name\",\"value\":{\"stringValue\":"
                  + "\"%s\"}},{\"key\":\"host.name\",\"value\":{\"stringValue\":\"host-%d\"}}]},"
                  + "\"scopeLogs\":[{\"logRecords\":[{\"timeUnixNano\":\"%d\",\"severityText\":\"%s\","
                  + "\"traceId\":\"%s\",\"spanId\":\"%s\",\"body\":{\"stringValue\":\"%s\"}}]}]}",
              service,
              i % 2,
              nanos,
              i % 5 == 0 ? "ERROR" : "INFO",
              service.equals("api") ? SMALL : "",
              service.equals("api") ? OtlpTraces.spanId(i % 7) : "",
              body));
    }
    return "{\"resourceLogs\":[" + String.join(",", records) + "]}";
  }

  private void otlp(String path, String body) throws Exception {
    HttpResponse<String> r =
        http.send(
            "POST",
            path,
            body,
            "Authorization",
            "Bearer " + token,
            "Content-Type",
            "application/json");
    assertEquals(200, r.statusCode(), r.body());
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

  private String base() {
    return "http://127.0.0.1:" + server.port();
  }

  private String range() {
    return "from=" + (t0 - 60_000) + "&to=" + (t0 + 120_000);
  }

  private WebElement waterfall(int spans) {
    return await(
        "the waterfall of " + spans + " spans",
        () ->
            browser
                .findElements(
                    By.cssSelector(".waterfall[data-state=ready][data-span-count='" + spans + "']"))
                .stream()
                .findFirst());
  }

  private List<WebElement> spanRows() {
    return browser.findElements(By.cssSelector(".waterfall .wf-row"));
  }

  @Test
  @Order(1)
  void aTraceOfTenThousandSpansDrawsAsANestedWaterfallWithSpanDetails() throws Exception {
    browser.get(base() + "/traces/" + serviceId + "/" + traces + "/" + BIG);
    input("Key ID").sendKeys("ADMIN");
    input("Key secret").sendKeys("adminsecret1");
    button("Sign in").click();
    WebElement box = waterfall(BIG_SPANS);
    System.out.println(
        "waterfall of "
            + BIG_SPANS
            + " spans: drawn in "
            + box.getAttribute("data-render-ms")
            + " ms after the answer (fetched in "
            + box.getAttribute("data-fetch-ms")
            + " ms)");
    assertEquals(String.valueOf(BIG_SPANS), box.getAttribute("data-visible-count"));
    List<WebElement> rows = spanRows();
    assertTrue(rows.size() > 10 && rows.size() < 200, "only the rows in view: " + rows.size());
    // Depth-first: the root, its first child, that child's first child, ...
    for (int i = 0; i < 4; i++) {
      assertEquals(String.valueOf(i), rows.get(i).getAttribute("data-depth"));
      assertEquals(String.valueOf(i + 1), rows.get(i).getAttribute("aria-level"));
    }
    assertEquals(OtlpTraces.spanId(0), rows.get(0).getAttribute("data-span-id"));
    assertEquals(OtlpTraces.spanId(1), rows.get(1).getAttribute("data-span-id"));
    assertEquals(OtlpTraces.spanId(5), rows.get(2).getAttribute("data-span-id"));
    assertTrue(
        browser.findElement(By.cssSelector(".trace-summary")).getText().contains("10,000 spans"));
    assertTrue(
        !browser.findElements(By.cssSelector(".wf-bar.wf-critical")).isEmpty(),
        "the critical path is marked");

    rows.get(2).findElement(By.cssSelector(".wf-name")).click();
    WebElement details =
        await(
            "the span's details",
            () ->
                browser
                    .findElements(
                        By.cssSelector(
                            ".span-details[data-span-id='" + OtlpTraces.spanId(5) + "']"))
                    .stream()
                    .findFirst());
    String text = details.getText();
    assertTrue(text.contains("op-5") && text.contains("deadline exceeded"), text);
    assertTrue(text.contains("exception.type") && text.contains("Timeout"), text);
    assertTrue(text.contains("span.number"), text);
    screenshot("trace.png");

    spanRows().get(0).findElement(By.cssSelector(".wf-toggle")).click();
    awaitTrue("the root collapsed", () -> "1".equals(box.getAttribute("data-visible-count")));
    spanRows().get(0).findElement(By.cssSelector(".wf-toggle")).click();
    awaitTrue(
        "the root expanded",
        () -> String.valueOf(BIG_SPANS).equals(box.getAttribute("data-visible-count")));
    assertNoConsoleErrors();
    assertNoPolicyViolations();
  }

  @Test
  @Order(2)
  void fromALogLineToItsTraceAndFromASpanToItsLogs() {
    browser.get(
        base() + "/explore/" + serviceId + "/" + logs + "?where=ServiceName:api&" + range());
    List<WebElement> rows = eventRows("ServiceName:api");
    rows.get(0).findElement(By.cssSelector("button.expand")).click();
    browser.findElement(By.cssSelector("tr.detail a.open-trace")).click();
    waterfall(7);
    assertTrue(
        browser.getCurrentUrl().endsWith("/" + traces + "/" + SMALL), browser.getCurrentUrl());
    spanRows().get(0).findElement(By.cssSelector(".wf-name")).click();
    browser.findElement(By.cssSelector(".span-details a.span-logs")).click();
    String where = "TraceId:\"" + SMALL + "\" SpanId:\"" + OtlpTraces.spanId(0) + "\"";
    List<WebElement> logsOfSpan = eventRows(where);
    assertEquals(3, logsOfSpan.size(), "the api lines of span 0: 0, 21 and 42");
    assertNoConsoleErrors();
    assertNoPolicyViolations();
  }

  private WebElement facet(String field) {
    return await(
        "the facet " + field,
        () ->
            browser
                .findElements(
                    By.cssSelector(
                        ".x-facets[data-state=ready] .facet[data-field='" + field + "']"))
                .stream()
                .findFirst());
  }

  @Test
  @Order(3)
  void aFacetValueNarrowsTheEventsAndAnotherExcludesOne() throws IOException {
    browser.get(base() + "/explore/" + serviceId + "/" + logs + "?" + range());
    WebElement services = facet("ServiceName");
    assertEquals(
        List.of("api", "db", "web"),
        services.findElements(By.cssSelector(".facet-value")).stream()
            .map(WebElement::getText)
            .sorted()
            .toList());
    assertTrue(services.getText().contains("20"), services.getText());
    facet("SeverityText");
    facet("ResourceAttributes.host.name");
    services.findElement(By.cssSelector(".facet-value[data-value='db']")).click();
    String narrowed = "ServiceName:\"db\"";
    List<WebElement> rows = eventRows(narrowed);
    assertEquals(20, rows.size());
    assertTrue(column(rows, 2).stream().allMatch("db"::equals), column(rows, 2).toString());
    assertTrue(browser.getCurrentUrl().contains("where=ServiceName"), browser.getCurrentUrl());
    awaitTrue(
        "the facets of the narrowed events",
        () -> facet("ServiceName").findElements(By.cssSelector(".facet-value")).size() == 1);
    facet("SeverityText").findElement(By.cssSelector(".facet-exclude[data-value='ERROR']")).click();
    rows = eventRows("(" + narrowed + ") -SeverityText:\"ERROR\"");
    assertEquals(16, rows.size(), "db lines 10, 25, 40 and 55 are errors");
    assertTrue(column(rows, 3).stream().allMatch("INFO"::equals), column(rows, 3).toString());
    browser.manage().window().setSize(new Dimension(1280, 1000));
    js("window.scrollTo(0, document.querySelector('.x-body').offsetTop - 10)");
    screenshot("facets.png");
    browser.manage().window().setSize(new Dimension(1280, 800));

    WebElement add = input("Add a field");
    add.sendKeys("ResourceAttributes.service.name");
    button("Add").click();
    awaitTrue("the added field in the URL", () -> browser.getCurrentUrl().contains("facets="));
    facet("ResourceAttributes.service.name");
    assertNoConsoleErrors();
    assertNoPolicyViolations();
  }

  private List<WebElement> contextRows(String field) {
    return await(
        "surrounding events by " + field,
        () -> {
          List<WebElement> rows =
              browser.findElements(
                  By.cssSelector(
                      ".x-context[data-state=ready][data-field='" + field + "'] tr.event"));
          return rows.isEmpty() ? Optional.empty() : Optional.of(rows);
        });
  }

  private static long at(List<WebElement> rows, String position) {
    return rows.stream().filter(r -> position.equals(r.getAttribute("data-position"))).count();
  }

  @Test
  @Order(4)
  void surroundingEventsOfAChosenLineFromTheSameServiceOrHost() throws IOException {
    browser.get(base() + "/explore/" + serviceId + "/" + logs + "?where=ServiceName:db&" + range());
    List<WebElement> rows = eventRows("ServiceName:db");
    // Newest first, the db lines are 58, 55, 52, 49, 46, 43, ...: the sixth is line 43.
    rows.get(5).findElement(By.cssSelector("button.expand")).click();
    browser.findElement(By.cssSelector("tr.detail button.surround[data-by=service]")).click();
    List<WebElement> around = contextRows("ServiceName");
    assertEquals(10, at(around, "before"), "db lines 13 to 40");
    assertEquals(5, at(around, "after"), "db lines 46 to 58");
    WebElement anchor = browser.findElement(By.cssSelector(".x-context tr.anchor"));
    assertTrue(anchor.getText().contains("k43"), anchor.getText());
    assertTrue(column(around, 2).stream().allMatch("db"::equals), column(around, 2).toString());
    List<String> times = column(around, 1);
    for (int i = 1; i < times.size(); i++) {
      assertTrue(times.get(i - 1).compareTo(times.get(i)) <= 0, "oldest first: " + times);
    }
    js("document.querySelector('.x-context-panel').scrollIntoView({block: 'start'})");
    screenshot("surrounding.png");

    WebElement byHost =
        browser.findElement(By.cssSelector("tr.detail button.surround[data-by=host]"));
    browser.executeScript("arguments[0].scrollIntoView({block: 'center'})", byHost);
    byHost.click();
    around = contextRows("ResourceAttributes.host.name");
    assertEquals(10, at(around, "before"), "odd lines 23 to 41, every service");
    assertEquals(8, at(around, "after"), "odd lines 45 to 59");
    assertEquals(
        List.of("api", "db", "web"), column(around, 2).stream().distinct().sorted().toList());
    browser.findElement(By.cssSelector("#x-context-n option[value='5']")).click();
    awaitTrue(
        "five each side", () -> at(contextRows("ResourceAttributes.host.name"), "before") == 5);
    assertNoConsoleErrors();
    assertNoPolicyViolations();
  }
}
