package dev.chartwell.server.store;

/**
 * Every durable collection of the server with its Chronicle Map shape and the largest document it
 * accepts. {@link DocumentStore} refuses a larger document before Chronicle Map sees it, and each
 * shape is chosen so that a document of exactly {@link #maxDocumentBytes} still fits.
 */
public enum Collection {
  /** organizations (one per data directory in practice). */
  ORGANIZATIONS("organizations.dat", "orgs", "organization", 64, 1024, 4 * 1024),
  /** API keys. */
  API_KEYS("api-keys.dat", "keys", "API key", 10_000, 512, 16 * 1024),
  /** services. */
  SERVICES("services.dat", "services", "service", 10_000, 2048, 256 * 1024),
  /** data warehouses (groups of services sharing sources). */
  WAREHOUSES("warehouses.dat", "warehouses", "warehouse", 10_000, 256, 16 * 1024),
  /** ClickStack source definitions. */
  SOURCES("sources.dat", "sources", "source", 100_000, 1024, 256 * 1024),
  /** table definitions (each one engine source). */
  TABLES("tables.dat", "tables", "table", 2_000, 512, 256 * 1024),
  /** dashboards with their tiles (up to 500). */
  DASHBOARDS("dashboards.dat", "dashboards", "dashboard", 10_000, 8192, 4 * 1024 * 1024),
  /** tile alerts. */
  ALERTS("alerts.dat", "alerts", "alert", 10_000, 1024, 64 * 1024),
  /** webhooks. */
  WEBHOOKS(
      "webhooks.dat", "webhooks", "webhook", 10_000, 1024, 64 * 1024, "headers", "queryParams"),
  /** saved searches. */
  SAVED_SEARCHES("saved-searches.dat", "savedSearches", "saved search", 2_000, 1024, 64 * 1024),
  /** ClickStack roles (the custom ones; the predefined ones are not stored). */
  ROLES("roles.dat", "roles", "role", 1_000, 1024, 64 * 1024),
  /** connections to external ClickHouse servers (HyperDX's {@code /api/v2/connections}). */
  CONNECTIONS("connections.dat", "connections", "connection", 10_000, 512, 16 * 1024, "password");

  private final String fileName;
  private final String mapName;
  private final String noun;
  private final long maxEntries;
  private final int averageDocumentBytes;
  private final int maxDocumentBytes;
  private final java.util.List<String> secretFields;

  Collection(
      String fileName,
      String mapName,
      String noun,
      long maxEntries,
      int averageDocumentBytes,
      int maxDocumentBytes,
      String... secretFields) {
    this.secretFields = java.util.List.of(secretFields);
    this.fileName = fileName;
    this.mapName = mapName;
    this.noun = noun;
    this.maxEntries = maxEntries;
    this.averageDocumentBytes = averageDocumentBytes;
    this.maxDocumentBytes = maxDocumentBytes;
  }

  /**
   * @return the top-level fields of a document that hold secrets the server must be able to read
   *     back (a connection's password, a webhook's headers and query parameters): {@link JsonStore}
   *     keeps them encrypted
   */
  public java.util.List<String> secretFields() {
    return secretFields;
  }

  /**
   * @return the Chronicle Map file name under the data directory
   */
  public String fileName() {
    return fileName;
  }

  /**
   * @return the Chronicle Map name (for its diagnostics)
   */
  public String mapName() {
    return mapName;
  }

  /**
   * @return what one document is, for error texts ("the dashboard is larger than ...")
   */
  public String noun() {
    return noun;
  }

  /**
   * @return the number of documents the map is sized for
   */
  public long maxEntries() {
    return maxEntries;
  }

  /**
   * @return the typical size of one document as JSON (UTF-8 bytes)
   */
  public int averageDocumentBytes() {
    return averageDocumentBytes;
  }

  /**
   * @return the largest document accepted, in UTF-8 bytes of its JSON
   */
  public int maxDocumentBytes() {
    return maxDocumentBytes;
  }

  /**
   * @param document a document's JSON, as it would be stored
   * @return why it is too large to store, if it is
   */
  public java.util.Optional<String> sizeProblem(String document) {
    long bytes = utf8Length(document);
    if (bytes <= maxDocumentBytes) {
      return java.util.Optional.empty();
    }
    return java.util.Optional.of(
        "the "
            + noun
            + " is larger than "
            + maxDocumentBytes
            + " bytes (as stored JSON: "
            + bytes
            + " bytes)");
  }

  static long utf8Length(String s) {
    long n = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        n++;
      } else if (c < 0x800) {
        n += 2;
      } else if (Character.isHighSurrogate(c)
          && i + 1 < s.length()
          && Character.isLowSurrogate(s.charAt(i + 1))) {
        n += 4;
        i++;
      } else {
        n += 3;
      }
    }
    return n;
  }
}
