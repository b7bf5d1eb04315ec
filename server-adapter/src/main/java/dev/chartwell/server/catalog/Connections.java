package dev.chartwell.server.catalog;

import static dev.chartwell.server.validation.FieldType.bool;
import static dev.chartwell.server.validation.FieldType.integer;
import static dev.chartwell.server.validation.FieldType.name;
import static dev.chartwell.server.validation.FieldType.nullable;
import static dev.chartwell.server.validation.FieldType.string;
import static dev.chartwell.server.validation.ObjectShape.Field.optional;
import static dev.chartwell.server.validation.ObjectShape.Field.required;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.chartwell.clickhouse.ClickHouseConnection;
import dev.chartwell.server.http.ApiException;
import dev.chartwell.server.store.Collection;
import dev.chartwell.server.store.JsonStore;
import dev.chartwell.server.store.Secrets;
import dev.chartwell.server.validation.ObjectShape;
import dev.chartwell.server.validation.Problems;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The connections of a warehouse. Every warehouse has the built-in connection {@value #BUILT_IN},
 * to its own embedded engine; its id is the same everywhere (like ClickHouse's {@code default}
 * database), so that a source definition can be copied between services unchanged, and a source
 * created without {@code connection} uses it. Connections to external ClickHouse servers ({@code
 * name}, {@code host}, {@code username}, {@code password}) are stored and checked here, durable in
 * Chronicle Map; their passwords are kept (sources on such a connection query through them) and
 * never shown. Two Chartwell extensions: {@code queryTimeoutSeconds} (1 to 3600, default 30) bounds
 * each query through the connection; {@code otlp: true} sends the service's OTLP logs and traces to
 * the connection's {@code otel_logs} and {@code otel_traces} tables instead of the embedded engine
 * (the oldest such connection of a warehouse wins).
 */
public final class Connections implements AutoCloseable {
  /** The id of the built-in connection of every warehouse. */
  public static final String BUILT_IN = "default";

  /** The longest per-connection query timeout (an hour). */
  static final int MAX_TIMEOUT_SECONDS = 3600;

  private static final ObjectShape CONNECTION =
      ObjectShape.of(
          optional("id", string()),
          required("name", name()),
          required("host", string()),
          required("username", string()),
          optional("password", string()),
          optional("hyperdxSettingPrefix", nullable(string())),
          optional("isPrometheusEndpoint", bool()),
          optional("queryTimeoutSeconds", integer(1, MAX_TIMEOUT_SECONDS)),
          optional("otlp", bool()),
          optional("createdAt", string()),
          optional("updatedAt", string()));

  private static final int MAX_HOST_LENGTH = 2048;

  private final JsonStore docs;
  private final Clock clock;
  private final SecureRandom random = new SecureRandom();

  private Connections(JsonStore docs, Clock clock) {
    this.docs = docs;
    this.clock = clock;
  }

  static Connections open(Path dataDir, ObjectMapper mapper, Clock clock, Secrets secrets)
      throws IOException {
    return new Connections(JsonStore.open(dataDir, Collection.CONNECTIONS, mapper, secrets), clock);
  }

  /**
   * @param warehouse a warehouse
   * @return its connections: the built-in one, then the stored ones, oldest first
   */
  public List<ObjectNode> list(String warehouse) {
    List<ObjectNode> out = new ArrayList<>();
    out.add(builtIn());
    docs.list(c -> c.path("_warehouseId").asText().equals(warehouse))
        .forEach(c -> out.add(view(c)));
    return out;
  }

  /**
   * @param warehouse the warehouse of the caller
   * @param id a connection id
   * @return the connection
   * @throws ApiException 404 when the warehouse has no such connection
   */
  public ObjectNode get(String warehouse, String id) {
    return BUILT_IN.equals(id) ? builtIn() : view(stored(warehouse, id));
  }

  /**
   * @param warehouse the warehouse
   * @param body the connection ({@code CreateConnectionRequest})
   * @return the new connection, without its password
   */
  public synchronized ObjectNode create(String warehouse, JsonNode body) {
    ObjectNode c = checked(body, null);
    String now = now();
    c.put("id", newId());
    c.put("createdAt", now);
    c.put("updatedAt", now);
    c.put("_warehouseId", warehouse);
    return save(c);
  }

  /**
   * Replaces a connection ({@code UpdateConnectionRequest}): a password left out or empty keeps the
   * stored one as long as the connection still points where it did (same scheme, host and port); a
   * connection moved elsewhere drops its stored password unless the request sets one, so that a
   * password is never sent to a host its owner did not give it to; {@code hyperdxSettingPrefix} and
   * {@code isPrometheusEndpoint} left out keep theirs, {@code hyperdxSettingPrefix} {@code null} or
   * empty clears it.
   *
   * @param warehouse the warehouse
   * @param id the connection
   * @param body the new definition
   * @return the connection, without its password
   * @throws ApiException 409 for the built-in connection, 404 when there is no such connection
   */
  public synchronized ObjectNode replace(String warehouse, String id, JsonNode body) {
    requireStored(id);
    ObjectNode old = stored(warehouse, id);
    ObjectNode c = checked(body, old);
    c.put("id", id);
    c.put("createdAt", old.get("createdAt").asText());
    c.put("updatedAt", now());
    c.put("_warehouseId", warehouse);
    return save(c);
  }

  /**
   * @param warehouse the warehouse
   * @param id the connection
   * @param usedBy the sources that read through a connection, by connection id
   * @throws ApiException 409 for the built-in connection and one a source uses, 404 when there is
   *     no such connection
   */
  public synchronized void delete(String warehouse, String id, Predicate<String> usedBy) {
    requireStored(id);
    stored(warehouse, id);
    if (usedBy.test(id)) {
      throw ApiException.conflict(
          "connection " + id + " is used by a source; change or delete that source first");
    }
    docs.remove(id);
  }

  /**
   * Says whether a source may read through a connection: the built-in one or one of its warehouse's
   * external ClickHouse connections.
   *
   * @param warehouse the source's warehouse
   * @param path the field's path
   * @param id the connection a source names
   * @param problems where the problem goes
   */
  void checkUsable(String warehouse, String path, String id, Problems problems) {
    if (BUILT_IN.equals(id) || external(warehouse, id).isPresent()) {
      return;
    }
    problems.add(
        path,
        "unknown connection '"
            + id
            + "'; the built-in connection is '"
            + BUILT_IN
            + "' (the service's embedded engine)");
  }

  /**
   * @param warehouse a warehouse
   * @param id a connection id
   * @return the external ClickHouse connection of that id, with its password, if the warehouse has
   *     it ({@code updatedAt} is part of its name's key in caches: see {@link #version})
   */
  public Optional<ClickHouseConnection> external(String warehouse, String id) {
    if (BUILT_IN.equals(id)) {
      return Optional.empty();
    }
    return docs.get(id)
        .filter(c -> c.path("_warehouseId").asText().equals(warehouse))
        .map(
            c ->
                new ClickHouseConnection(
                    c.path("name").asText(),
                    URI.create(c.path("host").asText()),
                    c.path("username").asText(),
                    c.path("password").asText(""),
                    Duration.ofSeconds(
                        c.path("queryTimeoutSeconds")
                            .asLong(ClickHouseConnection.DEFAULT_TIMEOUT.toSeconds()))));
  }

  /**
   * @param warehouse a warehouse
   * @return the id of its oldest connection marked {@code otlp: true}, if any
   */
  public Optional<String> otlpDestination(String warehouse) {
    return docs
        .list(
            c ->
                c.path("_warehouseId").asText().equals(warehouse)
                    && c.path("otlp").asBoolean(false))
        .stream()
        .map(c -> c.get("id").asText())
        .findFirst();
  }

  /**
   * @param id a connection id
   * @return when it was last changed (clients cached per connection are rebuilt after a change)
   */
  String version(String id) {
    return docs.get(id).map(c -> c.path("updatedAt").asText()).orElse("");
  }

  /**
   * Deletes every connection of a warehouse (its last service is gone).
   *
   * @param warehouse the warehouse
   */
  synchronized void dropWarehouse(String warehouse) {
    for (ObjectNode c : docs.list(x -> x.path("_warehouseId").asText().equals(warehouse))) {
      docs.remove(c.get("id").asText());
    }
  }

  private static void requireStored(String id) {
    if (BUILT_IN.equals(id)) {
      throw ApiException.conflict(
          "the built-in connection '"
              + BUILT_IN
              + "' (the service's embedded engine) cannot be"
              + " changed or deleted");
    }
  }

  private ObjectNode checked(JsonNode body, ObjectNode old) {
    if (!body.isObject()) {
      throw ApiException.badRequest("request body must be a JSON object");
    }
    ObjectNode c = ((ObjectNode) body).deepCopy();
    c.remove(List.of("id", "createdAt", "updatedAt"));
    Problems p = new Problems();
    CONNECTION.checkBody(c, p);
    if (c.path("host").isTextual() && !isHttp(c.get("host").textValue())) {
      p.add(
          "host",
          "must be the http or https URL of a ClickHouse server, such as"
              + " https://clickhouse.example.com:8443");
    }
    if (c.path("username").isTextual()) {
      p.name("username", c.get("username").textValue());
    }
    JsonNode prefix = c.get("hyperdxSettingPrefix");
    if (prefix != null
        && prefix.isTextual()
        && !prefix.textValue().isEmpty()
        && !prefix.textValue().matches("[A-Za-z0-9_]+")) {
      p.add("hyperdxSettingPrefix", "must hold only letters, digits and underscores");
    }
    if (c.path("isPrometheusEndpoint").asBoolean(false)) {
      p.add(
          "isPrometheusEndpoint",
          "Prometheus connections are not supported: Chartwell runs no PromQL");
    }
    p.throwIfAny();
    if (old != null) {
      if (c.path("password").asText("").isEmpty()
          && old.has("password")
          && sameOrigin(old.path("host").asText(), c.path("host").asText())) {
        c.set("password", old.get("password"));
      }
      if (!c.has("hyperdxSettingPrefix") && old.has("hyperdxSettingPrefix")) {
        c.set("hyperdxSettingPrefix", old.get("hyperdxSettingPrefix"));
      }
      if (!c.has("isPrometheusEndpoint") && old.has("isPrometheusEndpoint")) {
        c.set("isPrometheusEndpoint", old.get("isPrometheusEndpoint"));
      }
    }
    if (c.path("hyperdxSettingPrefix").asText("").isEmpty()) {
      c.remove("hyperdxSettingPrefix"); // null or empty: none
    }
    if (c.path("password").asText("").isEmpty()) {
      c.remove("password");
    }
    return c;
  }

  /** Whether two connection URLs name the same scheme, host and port. */
  static boolean sameOrigin(String a, String b) {
    try {
      URI x = new URI(a);
      URI y = new URI(b);
      return x.getScheme().equalsIgnoreCase(y.getScheme())
          && x.getHost().equalsIgnoreCase(y.getHost())
          && port(x) == port(y);
    } catch (URISyntaxException | RuntimeException e) {
      return false;
    }
  }

  private static int port(URI u) {
    return u.getPort() >= 0 ? u.getPort() : "https".equalsIgnoreCase(u.getScheme()) ? 443 : 80;
  }

  private static boolean isHttp(String host) {
    if (host.length() > MAX_HOST_LENGTH) {
      return false;
    }
    try {
      URI uri = new URI(host);
      String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
      return (scheme.equals("http") || scheme.equals("https")) && uri.getHost() != null;
    } catch (URISyntaxException e) {
      return false;
    }
  }

  private ObjectNode save(ObjectNode c) {
    Collection.CONNECTIONS
        .sizeProblem(c.toString())
        .ifPresent(
            tooLarge -> {
              throw new ApiException(
                  dev.chartwell.server.http.ErrorCode.PAYLOAD_TOO_LARGE, tooLarge);
            });
    docs.put(c.get("id").asText(), c);
    return view(c);
  }

  private ObjectNode stored(String warehouse, String id) {
    return docs.get(id)
        .filter(c -> c.path("_warehouseId").asText().equals(warehouse))
        .orElseThrow(() -> ApiException.notFound("connection " + id + " does not exist"));
  }

  private ObjectNode builtIn() {
    ObjectNode c = new ObjectMapper().createObjectNode();
    c.put("id", BUILT_IN);
    c.put("name", "Built-in");
    c.put("host", "embedded");
    c.put("username", "default");
    c.put("isPrometheusEndpoint", false);
    return c;
  }

  private static ObjectNode view(ObjectNode stored) {
    ObjectNode v = stored.deepCopy();
    v.remove(List.of("password", "_warehouseId"));
    return v;
  }

  private String now() {
    return Instant.now(clock).truncatedTo(ChronoUnit.MILLIS).toString();
  }

  private String newId() {
    byte[] b = new byte[12];
    random.nextBytes(b);
    return HexFormat.of().formatHex(b);
  }

  @Override
  public void close() {
    docs.close();
  }
}
