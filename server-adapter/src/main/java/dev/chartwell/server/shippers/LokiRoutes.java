package dev.chartwell.server.shippers;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.chartwell.engine.ColumnSpec;
import dev.chartwell.engine.Source;
import dev.chartwell.otlp.OtelTable;
import dev.chartwell.otlp.Signal;
import dev.chartwell.server.catalog.Catalog;
import dev.chartwell.server.charts.ChartRoutes;
import dev.chartwell.server.charts.ServicePrincipal;
import dev.chartwell.server.http.ApiException;
import dev.chartwell.server.http.Authenticator;
import dev.chartwell.server.http.ErrorCode;
import dev.chartwell.server.http.PathPattern;
import dev.chartwell.server.http.Request;
import dev.chartwell.server.http.Response;
import dev.chartwell.server.http.Route;
import dev.chartwell.server.http.Router;
import dev.chartwell.server.management.Services;
import dev.chartwell.server.otlp.BodyBudget;
import dev.chartwell.server.otlp.OtelSources;
import dev.chartwell.server.tenancy.ServiceLimits;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Loki's push API: {@code POST /loki/api/v1/push} in JSON or snappy-compressed protobuf, into the
 * table {@code --loki-table} (default {@value #TABLE}) of the service's warehouse, created on first
 * use with the columns of {@code otel_logs} and a log source named {@code Loki}. A push with Loki's
 * tenant header {@code X-Scope-OrgID: T} writes to the table {@code <table>_<t>} instead ({@link
 * #tenantTable}), with a log source of that name. A stream's labels become {@code
 * ResourceAttributes.*} ({@code service_name}, else {@code job}, else {@code app}, is the {@code
 * ServiceName}; {@code level} or {@code detected_level} the {@code SeverityText}), an entry's
 * structured metadata {@code LogAttributes.*}, its line the {@code Body} and its time, to the
 * nanosecond, {@code TimestampNanos}. Answers: 204 once stored, 400 for what will never be accepted
 * (nothing of the request is stored), 429 with {@code Retry-After} while the engine refuses writes
 * for memory. Errors are plain text, as Loki's. {@code GET /ready} answers {@code ready}.
 */
public final class LokiRoutes {
  /** The table pushes go to unless configured otherwise. */
  static final String TABLE = "loki_logs";

  /** Loki's tenant header. */
  static final String TENANT = "X-Scope-OrgID";

  /** The most the rows may grow beyond the body (each entry carries its stream's labels). */
  static final int MAX_EXPANSION = 32;

  private static final Route.Body BODIES =
      new Route.Body(Set.of("application/json", "application/x-protobuf"), true);

  private final Authenticator auth;
  private final Catalog catalog;
  private final ObjectMapper mapper;
  private final long maxBodyBytes;
  private final BodyBudget budget;
  private final String table;
  private final ServiceLimits limits;

  /**
   * @param services the services, whose tokens authenticate (Bearer, or Basic {@code
   *     serviceId:token} as Loki clients send it)
   * @param catalog the tables
   * @param mapper reads JSON bodies
   * @param maxBodyBytes the body limit, received and uncompressed (413 beyond)
   * @param budget the memory the bodies being read may hold together (429 beyond)
   * @param table the table pushes without a tenant write to ({@code --loki-table})
   * @param limits the per-service limits: a push is an ingestion request, refused (429) before its
   *     body is read
   */
  public LokiRoutes(
      Services services,
      Catalog catalog,
      ObjectMapper mapper,
      long maxBodyBytes,
      BodyBudget budget,
      String table,
      ServiceLimits limits) {
    this.auth = ChartRoutes.serviceToken(services);
    this.catalog = catalog;
    this.mapper = mapper;
    this.maxBodyBytes = maxBodyBytes;
    this.budget = budget;
    this.table = table;
    this.limits = limits;
  }

  /**
   * Adds the routes.
   *
   * @param router where
   */
  public void register(Router router) {
    router.add(
        new Route(
                "POST", PathPattern.of("/loki/api/v1/push"), auth, maxBodyBytes, BODIES, this::push)
            .withErrorBody(
                (e, requestId, contentType) ->
                    new Response.Bytes(
                        "text/plain; charset=utf-8",
                        (e.getMessage() + "\n").getBytes(StandardCharsets.UTF_8)))
            .withAdmission(limits::ingest));
    router.add(
        new Route(
            "GET",
            PathPattern.of("/ready"),
            new Authenticator.None(),
            maxBodyBytes,
            Route.Body.NONE,
            req ->
                Response.bytes(
                    200, "text/plain; charset=utf-8", "ready\n".getBytes(StandardCharsets.UTF_8))));
  }

  private Response push(Request req) throws java.io.IOException {
    try (BodyBudget.Held held = budget.hold()) {
      return push(req, held);
    }
  }

  private Response push(Request req, BodyBudget.Held held) throws java.io.IOException {
    ServicePrincipal p = req.principal(ServicePrincipal.class);
    if (p.state().equals("provisioning") || p.state().equals("starting")) {
      throw new ApiException(
          ErrorCode.TOO_MANY_REQUESTS,
          "service " + p.id() + " is " + p.state() + "; send again once it runs",
          Map.of("Retry-After", "1"));
    }
    p.requireRunning();
    p.requireWritable();
    Optional<String> tenant = req.header(TENANT).map(String::strip).filter(t -> !t.isEmpty());
    String target = tenant.map(t -> tenantTable(table, t)).orElse(table); // 400 before the body
    byte[] body = BodyBudget.read(req.bodyStream(), held, ElasticRoutes.declaredLength(req));
    boolean protobuf =
        req.header("Content-Type")
            .orElse("")
            .toLowerCase(Locale.ROOT)
            .startsWith("application/x-protobuf");
    long allowed = MAX_EXPANSION * Math.max(body.length, 1L << 20);
    byte[] raw = protobuf ? LokiPush.uncompress(body, maxBodyBytes, held) : body;
    LokiTape tape = protobuf ? LokiProtobufTape.readOrNull(raw) : LokiJsonTape.readOrNull(raw);
    long expanded = tape != null ? tape.expanded() : 0;
    if (expanded > allowed) {
      tape = null; // the tape counts lines in bytes: the general reader counts them exactly
      expanded = 0;
    }
    List<LokiPush.Stream> streams =
        tape != null ? List.of() : protobuf ? LokiPush.protobuf(raw) : LokiPush.json(mapper, raw);
    long entries = tape != null ? tape.entries() : 0;
    for (LokiPush.Stream s : streams) {
      expanded += labelChars(s.labels()) * s.entries().size();
      for (LokiPush.Entry e : s.entries()) {
        expanded += e.line().length();
      }
      entries += s.entries().size();
    }
    if (expanded > allowed) {
      throw new ApiException(
          ErrorCode.PAYLOAD_TOO_LARGE,
          String.format(
              Locale.ROOT,
              "the %,d entries of this push would store about %,d characters (each carries its"
                  + " stream's labels), more than %d times the request; send fewer per push",
              entries,
              expanded,
              MAX_EXPANSION));
    }
    if (entries == 0) {
      return noContent();
    }
    Source source = table(p.warehouseId(), target, tenant.isPresent() ? target : "Loki");
    LokiRows rows = new LokiRows(source::append);
    if (tape != null) {
      rows.write(tape);
    } else {
      rows.write(streams);
    }
    if (rows.refused() > 0) {
      throw ApiException.badRequest(
          rows.refused()
              + " of "
              + entries
              + " entries were refused (the others were stored): "
              + String.join("; ", rows.problems()));
    }
    return noContent();
  }

  /**
   * @param labels a stream's labels
   * @return the characters they add to each of the stream's rows, as the expansion limit counts
   */
  static long labelChars(Map<String, String> labels) {
    long chars = 0;
    for (Map.Entry<String, String> l : labels.entrySet()) {
      chars += l.getKey().length() + l.getValue().length() + 20;
    }
    return chars;
  }

  private static Response noContent() {
    return Response.bytes(204, "text/plain", new byte[0]);
  }

  /**
   * The table of a tenant's pushes: {@code <table>_<tenant>}, the tenant lower-cased and each
   * character other than {@code a-z}, {@code 0-9} and {@code _} made {@code _}.
   *
   * @param table the configured table
   * @param tenant the {@code X-Scope-OrgID} header's value
   * @return the table name
   * @throws ApiException 400 when the tenant is longer than 150 characters (Loki's limit) or is
   *     {@code .} or {@code ..}
   */
  static String tenantTable(String table, String tenant) {
    if (tenant.length() > 150 || tenant.equals(".") || tenant.equals("..")) {
      throw ApiException.badRequest(
          TENANT + ": a tenant is 1 to 150 characters, not '.' or '..' (as Loki's)");
    }
    StringBuilder out = new StringBuilder(table).append('_');
    for (char c : tenant.toLowerCase(Locale.ROOT).toCharArray()) {
      out.append((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ? c : '_');
    }
    return out.toString();
  }

  /**
   * A Loki table, created with {@code otel_logs}'s columns and a log source.
   *
   * @param warehouse the service's warehouse
   * @param name the table
   * @param sourceName the source's name
   */
  private Source table(String warehouse, String name, String sourceName) {
    OtelTable t = OtelTable.LOGS;
    ObjectNode d = mapper.createObjectNode();
    d.put("timestampColumn", t.timestampColumn());
    d.put("implicitColumn", t.implicitColumn());
    d.put("bodyColumn", t.bodyColumn());
    var columns = d.putArray("columns");
    for (ColumnSpec c : t.columns()) {
      columns.addObject().put("name", c.name()).put("type", c.type().wireName());
    }
    ObjectNode s = OtelSources.source(mapper, Signal.LOGS);
    s.put("name", sourceName);
    ((ObjectNode) s.get("from")).put("tableName", name);
    s.remove(List.of("traceIdExpression", "spanIdExpression"));
    return LogTables.table(catalog, warehouse, name, d, s);
  }
}
