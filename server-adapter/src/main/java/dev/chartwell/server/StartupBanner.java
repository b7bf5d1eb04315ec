package dev.chartwell.server;

import dev.chartwell.server.catalog.Catalog;
import dev.chartwell.server.clickstack.Resources;
import dev.chartwell.server.http.Json;
import dev.chartwell.server.http.SelfSigned;
import dev.chartwell.server.http.Tls;
import dev.chartwell.server.management.Accounts;
import dev.chartwell.server.management.Services;
import dev.chartwell.server.store.DataDirectory;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * What a server that has started says, and the start-up services that add to it: the addresses it
 * listens on, its TLS certificate, the organization and admin key, the demo data ({@code --demo})
 * and the quickstart service ({@code --quickstart}) it prepares, the web UI and, when embedded, the
 * embedded service.
 */
final class StartupBanner {
  private StartupBanner() {}

  /**
   * Prepares the demo and quickstart services when asked, and returns the banner's lines.
   *
   * @param port the main port
   * @param otlpPort the OTLP port, {@code -1} when not served apart
   * @param elasticPort the Elasticsearch port, {@code -1} when not served apart
   * @param access the embedded service, or {@code null}
   * @return the lines, in order (a mutable list: the caller may add to it)
   * @throws IOException when the demo data or the quickstart service cannot be prepared
   */
  static List<String> lines(
      ServerConfig config,
      Tls tls,
      DataDirectory dir,
      int port,
      int otlpPort,
      int elasticPort,
      Accounts.Bootstrap boot,
      Services services,
      Catalog catalog,
      Resources resources,
      Json json,
      PrintStream log,
      ChartwellServer.Access access)
      throws IOException {
    List<String> banner = new ArrayList<>();
    String host = config.host().contains(":") ? "[" + config.host() + "]" : config.host();
    String scheme = tls == null ? "http://" : "https://";
    banner.add("Chartwell listening on " + scheme + host + ":" + port);
    if (otlpPort >= 0) {
      banner.add("OTLP/HTTP listening on " + scheme + host + ":" + otlpPort);
    }
    if (elasticPort >= 0) {
      banner.add("Elasticsearch API listening on " + scheme + host + ":" + elasticPort);
    }
    if (tls != null) {
      banner.add("TLS certificate SHA-256 fingerprint: " + tls.fingerprint());
      if (config.tls().get().selfSigned()) {
        banner.add(
            "self-signed certificate: "
                + dir.root().resolve(SelfSigned.CERTIFICATE)
                + " (trust it, e.g. curl --cacert, or check the fingerprint)");
      }
    }
    banner.add("organization id: " + boot.organization().id());
    banner.add("admin key id: " + boot.keyId());
    boot.generatedSecret()
        .ifPresent(s -> banner.add("admin key secret (shown once, store it now): " + s));
    if (config.demo()) {
      try {
        banner.addAll(
            Demo.ensure(
                boot.organization(),
                services,
                catalog,
                resources,
                json.mapper(),
                scheme + host + ":" + port,
                line -> log.println("chartwell: " + line)));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while loading the demo data", e);
      }
    }
    if (config.quickstart()) {
      try {
        banner.addAll(
            QuickStart.ensure(
                boot.organization(),
                services,
                catalog,
                json.mapper(),
                dir.root(),
                config.dataDir(),
                scheme + host + ":" + port));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while starting the quickstart service", e);
      }
    }
    banner.add(
        "web UI: " + scheme + host + ":" + port + "/ (sign in with an API key id and secret)");
    if (access != null) {
      banner.add("embedded service id: " + access.serviceId());
      banner.add("embedded service token (Bearer, for the chart API): " + access.serviceToken());
    }
    return banner;
  }
}
