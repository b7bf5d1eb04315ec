package dev.chartwell.server.ui;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Level;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;

/**
 * Debian's Chromium and its chromedriver, headless, for the web UI's browser tests. The paths are
 * always given (so that Selenium Manager never looks for, or downloads, a browser or driver), and
 * the browser resolves no host name but the loopback address and does no background networking:
 * nothing in these tests reaches beyond 127.0.0.1.
 */
final class Chromium {
  /** What to install when the browser is missing. */
  static final String PACKAGES = "chromium chromium-driver";

  private Chromium() {}

  /**
   * @return the browser and driver binaries, when both are installed ({@code CHROMIUM_BIN} and
   *     {@code CHROMEDRIVER_BIN} name others)
   */
  static Optional<Path[]> find() {
    Path browser = firstExisting(System.getenv("CHROMIUM_BIN"), "/usr/bin/chromium");
    Path driver = firstExisting(System.getenv("CHROMEDRIVER_BIN"), "/usr/bin/chromedriver");
    return browser == null || driver == null
        ? Optional.empty()
        : Optional.of(new Path[] {browser, driver});
  }

  private static Path firstExisting(String... candidates) {
    for (String c : candidates) {
      if (c != null && !c.isBlank() && Files.isExecutable(Path.of(c))) {
        return Path.of(c);
      }
    }
    return null;
  }

  /**
   * @param binaries the browser and the driver
   * @param width window width
   * @param height window height
   * @param extra further command-line switches of the browser
   * @return a headless browser session, its console kept for the test to read
   */
  static ChromeDriver start(Path[] binaries, int width, int height, String... extra) {
    ChromeOptions options = new ChromeOptions();
    options.addArguments(extra);
    options.setBinary(binaries[0].toFile());
    options.addArguments(
        List.of(
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--window-size=" + width + "," + height,
            "--no-first-run",
            "--no-default-browser-check",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-default-apps",
            "--disable-extensions",
            "--disable-client-side-phishing-detection",
            "--disable-domain-reliability",
            "--no-pings",
            "--disable-features=Translate,OptimizationHints,MediaRouter,AutofillServerCommunication",
            "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
            "--lang=en-US"));
    LoggingPreferences logs = new LoggingPreferences();
    logs.enable(LogType.BROWSER, Level.ALL);
    options.setCapability("goog:loggingPrefs", logs);
    options.setExperimentalOption("prefs", Map.of("credentials_enable_service", false));
    ChromeDriverService service =
        new ChromeDriverService.Builder()
            // Given here, the driver is used as it is: Selenium's DriverFinder only runs Selenium
            // Manager (which may download) when a service names no executable.
            .usingDriverExecutable(binaries[1].toFile())
            .usingAnyFreePort()
            .withTimeout(Duration.ofSeconds(30))
            .build();
    return new ChromeDriver(service, options);
  }
}
