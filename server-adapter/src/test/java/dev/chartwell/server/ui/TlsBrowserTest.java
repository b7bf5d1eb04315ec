package dev.chartwell.server.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.chartwell.server.ChartwellServer;
import dev.chartwell.server.TestServers;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The web UI over HTTPS in headless Chromium: the server has the test CA's certificate for
 * 127.0.0.1 ({@code src/test/resources/tls}). Chromium does not read a Java trust store (it would
 * need the CA in an NSS database under its home), so the browser runs with {@code
 * --ignore-certificate-errors}: this checks that the UI works over TLS, not that the browser trusts
 * the chain (the JDK client and curl check that, in {@code TlsIntegrationTest}). Skipped, loudly,
 * when Chromium is missing.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TlsBrowserTest extends BrowserPage {
  @TempDir static Path dir;
  ChartwellServer server;
  String uiUrl;

  static Path fixture(String name) throws Exception {
    return Path.of(TlsBrowserTest.class.getResource("/tls/" + name).toURI());
  }

  @BeforeAll
  void start() throws Exception {
    Optional<Path[]> chromium = Chromium.find();
    if (chromium.isEmpty()) {
      System.err.println(
          "\n*** SKIPPED: the web UI's TLS browser test needs Debian's Chromium and its driver:"
              + " apt-get install -y "
              + Chromium.PACKAGES
              + " ***\n");
      return;
    }
    server =
        TestServers.start(
            dir,
            "--tls-cert",
            fixture("server.pem").toString(),
            "--tls-key",
            fixture("server-key.pem").toString());
    uiUrl =
        server.banner().stream()
            .filter(l -> l.startsWith("web UI: "))
            .findFirst()
            .orElseThrow()
            .substring("web UI: ".length())
            .split(" ")[0];
    browser = Chromium.start(chromium.get(), 1280, 800, "--ignore-certificate-errors");
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
  void theUiLoadsAndCallsTheApiOverHttps() throws Exception {
    assumeTrue(browser != null, "SKIPPED: Chromium is not installed");
    assertTrue(uiUrl.startsWith("https://127.0.0.1:"), uiUrl);
    browser.get(uiUrl);
    input("Key ID").sendKeys("ADMIN");
    input("Key secret").sendKeys("adminsecret1");
    assertEquals("https:", js("return location.protocol"));
    // The page's own origin answers the API over the same TLS connection rules.
    Object status =
        browser.executeAsyncScript(
            "const done = arguments[arguments.length - 1];"
                + " fetch('/v1/organizations', {headers: {Authorization: 'Basic '"
                + " + btoa('ADMIN:adminsecret1')}}).then(r => done(r.status), e => done(String(e)));");
    assertEquals(200L, status);
    assertEquals(List.of(), severe(), "console errors");
  }
}
