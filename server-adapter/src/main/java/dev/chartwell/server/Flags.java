package dev.chartwell.server;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** The server's flags: their names, value syntax, defaults and help, and the usage text. */
final class Flags {
  private Flags() {}

  /** One flag: its name, whether it takes a value, its default and its help text. */
  record Flag(String name, String valueName, String defaultText, String help) {
    String envName() {
      return "CHARTWELL_" + name.toUpperCase(Locale.ROOT).replace('-', '_');
    }

    boolean isSwitch() {
      return valueName == null;
    }
  }

  static final List<Flag> FLAGS =
      List.of(
          new Flag(
              "host",
              "ADDRESS",
              "127.0.0.1",
              "bind address; to expose it, also give --tls-cert/--tls-key (or"
                  + " --tls-self-signed) and see --allow-outbound"),
          new Flag("port", "PORT", "8080", "TCP port for both APIs (0 = any free port)"),
          new Flag(
              "otlp-port", "PORT", "off", "a second port serving only OTLP/HTTP (usually 4318)"),
          new Flag(
              "elasticsearch-port",
              "PORT",
              "off",
              "a port serving only the Elasticsearch bulk API at its root (usually 9200)"),
          new Flag("data-dir", "DIR", "./chartwell-data", "directory of all durable state"),
          new Flag("org-id", "UUID", "generated once", "organization of the bootstrap key"),
          new Flag("api-key", "KEYID:SECRET", "generated once", "ensure this admin key exists"),
          new Flag("org-tier", "TIER", "SCALE", "BASIC, SCALE or ENTERPRISE"),
          new Flag("org-paid", "BOOL", "true", "paid (true) or non-paid (false) limits"),
          new Flag("demo", null, "off", "create the demo service, source and events"),
          new Flag(
              "quickstart",
              null,
              "off",
              "create the service 'default' with a log source and print how to send to it"),
          new Flag("threads", "N", "cores", "query worker threads"),
          new Flag(
              "warm-up",
              "BOOL",
              "true",
              "after start, run the query and ingestion paths on synthetic events in the"
                  + " background, so that first queries are fast"),
          new Flag("max-request-bytes", "SIZE", "1m", "body limit of every route but ingestion"),
          new Flag("max-ingest-bytes", "SIZE", "64m", "body limit of the ingestion route"),
          new Flag("query-timeout", "DURATION", "30s", "longest a chart query may run"),
          new Flag(
              "query-memory", "SIZE", "1/4 of heap, at most 1g", "most heap one query may hold"),
          new Flag(
              "max-memory",
              "SIZE",
              "1/2 of heap",
              "events held in memory before ingestion answers 503"),
          new Flag(
              "fsync",
              "POLICY",
              "request",
              "request, interval:<ms> or never: when ingested events reach the disk"),
          new Flag("retention", "AGE", "off", "drop events older than this (30d, 12h, 2w)"),
          new Flag(
              "max-disk",
              "SIZE",
              "off",
              "drop the oldest events of the service holding most when files exceed this"),
          new Flag(
              "max-disk-per-service",
              "SIZE",
              "off",
              "drop a service's oldest events when its files exceed this (API: diskQuota)"),
          new Flag(
              "seal-idle",
              "DURATION",
              "30s",
              "seal a source's unsealed events idle this long when over half --max-memory"),
          new Flag(
              "max-queries-per-service",
              "N",
              "1/4 of --http-threads",
              "queries one service may run at once (more: 429)"),
          new Flag(
              "max-ingests-per-service",
              "N",
              "1/4 of --http-threads",
              "ingestion requests one service may send at once (more: 429)"),
          new Flag("idle-timeout", "DURATION", "30s", "close connections idle this long"),
          new Flag(
              "header-timeout", "DURATION", "10s", "time to send a request's line and headers"),
          new Flag("body-timeout", "DURATION", "10s", "longest pause while a request body arrives"),
          new Flag("max-connections", "N", "1000", "open connections (more wait to be accepted)"),
          new Flag("http-threads", "N", "200", "HTTP worker threads, 8-10000"),
          new Flag("max-header-bytes", "SIZE", "16k", "request line plus headers, 1k-1m"),
          new Flag("webhook-timeout", "DURATION", "10s", "longest one webhook delivery may take"),
          new Flag("webhook-attempts", "N", "3", "attempts per alert notification, 1-10"),
          new Flag(
              "webhook-retry-delay",
              "DURATION",
              "10s",
              "wait before the second attempt (each later one waits 3x longer)"),
          new Flag(
              "allow-outbound",
              "CIDR,...",
              "none",
              "private or own ranges webhooks and ClickHouse may reach when not bound to loopback"),
          new Flag(
              "webhook-deny-private",
              null,
              "off",
              "deprecated: restrict outbound requests even when bound to loopback"),
          new Flag("frontend-url", "URL", "none", "HyperDX UI that alert notifications link to"),
          new Flag(
              "tls-cert",
              "FILE",
              "none (plain HTTP)",
              "PEM certificate chain: serve HTTPS on every port (with --tls-key)"),
          new Flag("tls-key", "FILE", "none", "PEM private key of --tls-cert (PKCS#8, RSA or EC)"),
          new Flag(
              "tls-self-signed",
              null,
              "off",
              "serve HTTPS with a self-signed certificate kept in the data directory"),
          new Flag(
              "tls-check-every",
              "DURATION",
              "10s",
              "how often --tls-cert/--tls-key are re-read when changed"),
          new Flag(
              "log-format",
              "FORMAT",
              "text",
              "text, or json: one JSON object per line (never a secret) for log collectors"),
          new Flag(
              "secrets-key-file",
              "FILE",
              "secrets.key in --data-dir",
              "key that encrypts stored passwords and webhook secrets (base64 of 32 bytes)"),
          new Flag(
              "key-hash-iterations",
              "N",
              "600000",
              "PBKDF2 cost of API key secrets, at least 1000"),
          new Flag(
              "backup-dir",
              "DIR",
              "none (no online backups)",
              "where POST /api/v2/admin/backup writes backups (see docs/operations.md)"),
          new Flag(
              "loki-table",
              "NAME",
              "loki_logs",
              "the table Loki pushes write to in each service (X-Scope-OrgID T: NAME_t)"),
          new Flag(
              "metrics-token",
              "TOKEN",
              "none",
              "Bearer token that may read /metrics (admin API keys always may), 16-256 URL-safe"
                  + " characters"));

  /** Where the documentation is read. */
  static final String DOCS = "https://github.com/chartwell-dev/chartwell/tree/main/docs";

  /**
   * @return the usage text listing every flag, its environment variable and its default
   */
  static String usage() {
    StringBuilder sb = new StringBuilder();
    sb.append(
        "Chartwell: a chart query engine and server for logs, traces and metrics (HyperDX,"
            + " ClickStack, OTLP and ClickHouse Cloud APIs, and a web UI).\n\n");
    sb.append("Usage: java -jar chartwell-server.jar [flags]\n");
    sb.append(
        "Example: java -jar chartwell-server.jar --demo   (then open http://127.0.0.1:8080/)\n");
    sb.append("Docs: " + DOCS + " (running.md explains every flag)\n\n");
    sb.append(
        "Values: DURATION is a number with ms, s, m or h (500ms, 30s, 2m); AGE a whole number with"
            + " m, h, d or w (30d, 12h, 2w); SIZE a number of bytes, optionally with k, m or g"
            + " (64m).\n");
    sb.append("Every flag can also be set with the environment variable shown.\n\n");
    for (Flag f : FLAGS) {
      String left = "  --" + f.name() + (f.isSwitch() ? "" : " " + f.valueName());
      sb.append(String.format(Locale.ROOT, "%-34s %s%n", left, f.help()));
      sb.append(
          String.format(
              Locale.ROOT, "%-34s env %s, default %s%n", "", f.envName(), f.defaultText()));
    }
    sb.append(String.format(Locale.ROOT, "%-34s %s%n", "  --help", "print this text"));
    return sb.toString();
  }

  static Optional<Flag> flag(String name) {
    return FLAGS.stream().filter(f -> f.name().equals(name)).findFirst();
  }
}
