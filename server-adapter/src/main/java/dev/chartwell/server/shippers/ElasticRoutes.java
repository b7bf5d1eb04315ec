package dev.chartwell.server.shippers;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.chartwell.engine.Source;
import dev.chartwell.server.catalog.Catalog;
import dev.chartwell.server.charts.ChartRoutes;
import dev.chartwell.server.charts.ServicePrincipal;
import dev.chartwell.server.http.ApiException;
import dev.chartwell.server.http.Authenticator;
import dev.chartwell.server.http.ErrorCode;
import dev.chartwell.server.http.Handler;
import dev.chartwell.server.http.PathPattern;
import dev.chartwell.server.http.Request;
import dev.chartwell.server.http.Response;
import dev.chartwell.server.http.Route;
import dev.chartwell.server.http.Router;
import dev.chartwell.server.management.Services;
import dev.chartwell.server.otlp.BodyBudget;
import dev.chartwell.server.tenancy.ServiceLimits;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Elasticsearch API shippers and clients write logs through: {@code POST /_bulk} and {@code
 * POST /{index}/_bulk} ({@link BulkIngest}), and the handshake they make before (cluster info,
 * health, license, index, template and ILM calls, answered so that they go on to write). Every
 * answer carries {@code X-Elastic-Product: Elasticsearch}, which the official clients require, and
 * errors have Elasticsearch's shape ({@code {"error":{"type","reason"},"status"}}). The routes sit
 * under a path prefix ({@code /elasticsearch} on the main port) or at the root of their own port.
 */
public final class ElasticRoutes {
  /** The path prefix of these routes on the main port. */
  public static final String PREFIX = "/elasticsearch";

  /** The timestamp field of the tables these routes create. */
  static final String TIMESTAMP = "@timestamp";

  /** The message field of the tables these routes create. */
  static final String MESSAGE = "message";

  /** The version answered when the client asks for no other. */
  static final String VERSION = "8.17.0";

  private static final Pattern COMPATIBLE = Pattern.compile("compatible-with\\s*=\\s*(\\d+)");
  private static final Map<String, String> PRODUCT = Map.of("X-Elastic-Product", "Elasticsearch");

  /** The bodies of {@code _bulk}: NDJSON under its names, and the versioned types of clients. */
  private static final Route.Body BULK =
      new Route.Body(
          Set.of(
              "application/x-ndjson",
              "application/json",
              "application/vnd.elasticsearch+x-ndjson",
              "application/vnd.elasticsearch+json"),
          true);

  /** The handshake's PUT bodies (templates, policies, index settings): read and ignored. */
  private static final Route.Body ANY_JSON =
      new Route.Body(Set.of("application/json", "application/vnd.elasticsearch+json"), false);

  private final Authenticator auth;
  private final Catalog catalog;
  private final ObjectMapper mapper;
  private final long maxBodyBytes;
  private final BodyBudget budget;
  private final ServiceLimits limits;

  /**
   * @param services the services, whose tokens authenticate (Bearer, Basic {@code serviceId:token}
   *     or {@code ApiKey base64(serviceId:token)})
   * @param catalog the tables
   * @param mapper reads bodies and writes answers
   * @param maxBodyBytes the body limit, received and decoded (413 beyond)
   * @param budget the memory the bodies being read may hold together (429 beyond)
   * @param limits the per-service limits: a bulk request is an ingestion request, refused (429)
   *     before its body is read
   */
  public ElasticRoutes(
      Services services,
      Catalog catalog,
      ObjectMapper mapper,
      long maxBodyBytes,
      BodyBudget budget,
      ServiceLimits limits) {
    this.auth = ChartRoutes.serviceToken(services);
    this.catalog = catalog;
    this.mapper = mapper;
    this.maxBodyBytes = maxBodyBytes;
    this.budget = budget;
    this.limits = limits;
  }

  /**
   * Adds the routes.
   *
   * @param router where
   * @param prefix the path prefix, such as {@code /elasticsearch}, or empty for the root
   */
  public void register(Router router, String prefix) {
    String root = prefix.isEmpty() ? "/" : prefix;
    add(router, "GET", root, Route.Body.NONE, this::info);
    add(router, "HEAD", root, Route.Body.NONE, req -> ok(Map.of()));
    bulk(router, "POST", prefix + "/_bulk", req -> bulk(req, null));
    bulk(router, "PUT", prefix + "/_bulk", req -> bulk(req, null));
    add(router, "GET", prefix + "/_cluster/health", Route.Body.NONE, req -> health());
    add(router, "GET", prefix + "/_license", Route.Body.NONE, req -> license());
    add(router, "GET", prefix + "/_xpack", Route.Body.NONE, req -> xpack());
    for (String kind : new String[] {"_index_template", "_template", "_ilm/policy"}) {
      String path = prefix + "/" + kind + "/{name}";
      add(router, "GET", path, Route.Body.NONE, req -> missing(kind, req.pathParam("name")));
      add(router, "HEAD", path, Route.Body.NONE, req -> missing(kind, req.pathParam("name")));
      add(router, "PUT", path, ANY_JSON, req -> ok(Map.of("acknowledged", true)));
      add(router, "POST", path, ANY_JSON, req -> ok(Map.of("acknowledged", true)));
    }
    for (String method : new String[] {"GET", "POST"}) {
      // Stored events are searchable at once: a refresh (the Node.js client's bulk helper asks
      // for one at its end) has nothing to do.
      add(router, method, prefix + "/_refresh", Route.Body.NONE, req -> refreshed());
      add(router, method, prefix + "/{index}/_refresh", Route.Body.NONE, req -> refreshed());
    }
    add(router, "GET", prefix + "/_data_stream/{name}", Route.Body.NONE, this::dataStream);
    add(router, "PUT", prefix + "/_data_stream/{name}", ANY_JSON, this::createDataStream);
    bulk(router, "POST", prefix + "/{index}/_bulk", req -> bulk(req, req.pathParam("index")));
    bulk(router, "PUT", prefix + "/{index}/_bulk", req -> bulk(req, req.pathParam("index")));
    add(router, "GET", prefix + "/{index}", Route.Body.NONE, this::getIndex);
    add(router, "HEAD", prefix + "/{index}", Route.Body.NONE, this::getIndex);
    add(router, "PUT", prefix + "/{index}", ANY_JSON, this::createIndex);
  }

  private void add(Router router, String method, String path, Route.Body body, Handler handler) {
    router.add(route(method, path, body, handler));
  }

  /** A bulk route: an ingestion request, admitted under the service's limit before its body. */
  private void bulk(Router router, String method, String path, Handler handler) {
    router.add(
        route(method, path, BULK, handler)
            .withAdmission(
                principal -> {
                  try {
                    return limits.ingest(principal);
                  } catch (ApiException e) {
                    throw withProduct(e);
                  }
                }));
  }

  private Route route(String method, String path, Route.Body body, Handler handler) {
    return new Route(
            method,
            PathPattern.of(path),
            auth,
            maxBodyBytes,
            body,
            req -> {
              try {
                return handler.handle(req).withHeader("X-Elastic-Product", "Elasticsearch");
              } catch (ApiException e) {
                throw withProduct(e);
              }
            })
        .withErrorBody((e, requestId, contentType) -> error(e));
  }

  /** The error with Elasticsearch's product header, which its clients check. */
  private static ApiException withProduct(ApiException e) {
    Map<String, String> headers = new LinkedHashMap<>(e.headers());
    headers.putAll(PRODUCT);
    ApiException withProduct = new ApiException(e.code(), e.getMessage(), headers);
    withProduct.setStackTrace(e.getStackTrace());
    return withProduct;
  }

  /** Elasticsearch's error body. */
  private Response.Bytes error(ApiException e) {
    ObjectNode body = mapper.createObjectNode();
    ObjectNode error = body.putObject("error");
    String type =
        switch (e.code()) {
          case UNAUTHORIZED, FORBIDDEN -> "security_exception";
          case NOT_FOUND -> "resource_not_found_exception";
          case TOO_MANY_REQUESTS -> "es_rejected_execution_exception";
          case PAYLOAD_TOO_LARGE -> "content_too_long_exception";
          case BAD_REQUEST, UNSUPPORTED_MEDIA_TYPE -> "illegal_argument_exception";
          default -> "chartwell_exception";
        };
    error.putArray("root_cause").addObject().put("type", type).put("reason", e.getMessage());
    error.put("type", type).put("reason", e.getMessage());
    body.put("status", e.code().status());
    try {
      return new Response.Bytes("application/json", mapper.writeValueAsBytes(body));
    } catch (com.fasterxml.jackson.core.JsonProcessingException x) {
      throw new IllegalStateException(x);
    }
  }

  private Response info(Request req) {
    ServicePrincipal p = req.principal(ServicePrincipal.class);
    Map<String, Object> version = new LinkedHashMap<>();
    version.put("number", version(req));
    version.put("build_flavor", "default");
    version.put("build_type", "chartwell");
    version.put("build_hash", "chartwell");
    version.put("build_date", "2026-01-01T00:00:00.000Z");
    version.put("build_snapshot", false);
    version.put("lucene_version", "9.12.0");
    version.put("minimum_wire_compatibility_version", "7.17.0");
    version.put("minimum_index_compatibility_version", "7.0.0");
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("name", "chartwell");
    body.put("cluster_name", "chartwell");
    body.put("cluster_uuid", p.id());
    body.put("version", version);
    body.put("tagline", "You Know, for Search");
    return ok(body);
  }

  /**
   * The version answered: the major version a client's {@code compatible-with} media type asks for
   * ({@code 9.0.0} for the 9.x clients), else {@value #VERSION}.
   */
  static String version(Request req) {
    for (String h : new String[] {"Accept", "Content-Type"}) {
      Matcher m = COMPATIBLE.matcher(req.header(h).orElse(""));
      if (m.find()) {
        int major = Integer.parseInt(m.group(1).length() > 2 ? "8" : m.group(1));
        return major == 8 ? VERSION : major + ".0.0";
      }
    }
    return VERSION;
  }

  private static Response health() {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("cluster_name", "chartwell");
    body.put("status", "green");
    body.put("timed_out", false);
    body.put("number_of_nodes", 1);
    body.put("number_of_data_nodes", 1);
    body.put("active_primary_shards", 0);
    body.put("active_shards", 0);
    body.put("relocating_shards", 0);
    body.put("initializing_shards", 0);
    body.put("unassigned_shards", 0);
    return ok(body);
  }

  private static Response refreshed() {
    return ok(Map.of("_shards", Map.of("total", 1, "successful", 1, "failed", 0)));
  }

  private static Response license() {
    Map<String, Object> license = new LinkedHashMap<>();
    license.put("status", "active");
    license.put("uid", "chartwell");
    license.put("type", "basic");
    license.put("issue_date_in_millis", 0);
    license.put("max_nodes", 1000);
    license.put("issued_to", "chartwell");
    license.put("issuer", "chartwell");
    return ok(Map.of("license", license));
  }

  /** Features off: shippers that ask (Logstash) then set up no ILM policy. */
  private static Response xpack() {
    Map<String, Object> off = Map.of("available", false, "enabled", false);
    return ok(
        Map.of(
            "build", Map.of("hash", "chartwell"),
            "license", Map.of("type", "basic", "mode", "basic", "status", "active"),
            "features", Map.of("ilm", off, "security", off, "monitoring", off)));
  }

  private static Response missing(String kind, String name) {
    throw ApiException.notFound(
        kind + " [" + name + "] missing: Chartwell keeps none; a PUT is acknowledged and ignored");
  }

  private Response getIndex(Request req) {
    String index = req.pathParam("index");
    requireTable(req, index);
    return ok(
        Map.of(index, Map.of("aliases", Map.of(), "mappings", Map.of(), "settings", Map.of())));
  }

  private Response createIndex(Request req) {
    String index = req.pathParam("index");
    writable(req);
    table(catalog, mapper, warehouse(req), IndexNames.table(index));
    return ok(Map.of("acknowledged", true, "shards_acknowledged", true, "index", index));
  }

  private Response dataStream(Request req) {
    String name = req.pathParam("name");
    requireTable(req, name);
    return ok(
        Map.of(
            "data_streams",
            java.util.List.of(
                Map.of(
                    "name",
                    name,
                    "timestamp_field",
                    Map.of("name", TIMESTAMP),
                    "status",
                    "GREEN"))));
  }

  private Response createDataStream(Request req) {
    writable(req);
    table(catalog, mapper, warehouse(req), IndexNames.table(req.pathParam("name")));
    return ok(Map.of("acknowledged", true));
  }

  private void requireTable(Request req, String index) {
    if (catalog
        .engineTable(warehouse(req), LogTables.DATABASE, IndexNames.table(index))
        .isEmpty()) {
      throw ApiException.notFound(
          "no such index [" + index + "] (table " + IndexNames.table(index) + ")");
    }
  }

  private Response bulk(Request req, String index) throws java.io.IOException {
    ServicePrincipal p = writable(req);
    try (BodyBudget.Held held = budget.hold()) {
      byte[] body = BodyBudget.read(req.bodyStream(), held, ElasticRoutes.declaredLength(req));
      byte[] answer = new BulkIngest(catalog, mapper, p.warehouseId(), index).run(body);
      return Response.bytes(200, "application/json", answer);
    }
  }

  /**
   * The length of an uncompressed body as its request declares it, or 0.
   *
   * @param req the request
   * @return its {@code Content-Length} when it has no {@code Content-Encoding}, else 0
   */
  static long declaredLength(Request req) {
    if (req.header("Content-Encoding").filter(e -> !e.isBlank()).isPresent()) {
      return 0;
    }
    try {
      return Math.max(0, Long.parseLong(req.header("Content-Length").orElse("0").trim()));
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  private static String warehouse(Request req) {
    ServicePrincipal p = req.principal(ServicePrincipal.class);
    p.requireRunning();
    return p.warehouseId();
  }

  private static ServicePrincipal writable(Request req) {
    ServicePrincipal p = req.principal(ServicePrincipal.class);
    if (p.state().equals("provisioning") || p.state().equals("starting")) {
      throw new ApiException(
          ErrorCode.TOO_MANY_REQUESTS,
          "service " + p.id() + " is " + p.state() + "; send again once it runs",
          Map.of("Retry-After", "1"));
    }
    p.requireRunning();
    p.requireWritable();
    return p;
  }

  private static Response ok(Object body) {
    return Response.json(200, body);
  }

  /**
   * The table of an index, created on first use: {@value #TIMESTAMP} as its event time, {@value
   * #MESSAGE} its body and the text bare search terms look in, and a log source of the same name.
   *
   * @param catalog the catalog
   * @param mapper builds the definitions
   * @param warehouse the warehouse
   * @param table the table name ({@link IndexNames#table})
   * @return its engine source
   */
  static Source table(Catalog catalog, ObjectMapper mapper, String warehouse, String table) {
    ObjectNode d = mapper.createObjectNode();
    d.put("timestampColumn", TIMESTAMP);
    d.put("implicitColumn", MESSAGE);
    d.put("bodyColumn", MESSAGE);
    d.putArray("columns").addObject().put("name", MESSAGE).put("type", "string");
    ObjectNode s = mapper.createObjectNode();
    s.put("name", table).put("kind", "log");
    s.putObject("from").put("databaseName", LogTables.DATABASE).put("tableName", table);
    s.put("timestampValueExpression", TIMESTAMP);
    s.put("displayedTimestampValueExpression", TIMESTAMP);
    s.put("bodyExpression", MESSAGE);
    s.put("implicitColumnExpression", MESSAGE);
    s.put("serviceNameExpression", "service.name");
    s.put("severityTextExpression", "log.level");
    return LogTables.table(catalog, warehouse, table, d, s);
  }
}
