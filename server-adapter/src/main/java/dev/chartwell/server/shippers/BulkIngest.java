package dev.chartwell.server.shippers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.chartwell.engine.AppendResult;
import dev.chartwell.engine.Event;
import dev.chartwell.engine.Source;
import dev.chartwell.server.catalog.Catalog;
import dev.chartwell.server.charts.WriteRefusals;
import dev.chartwell.server.http.ApiException;
import dev.chartwell.server.http.ErrorCode;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One {@code _bulk} request: NDJSON action and source lines, read from the whole body, written to
 * the table of each item's index in batches, and answered item by item as Elasticsearch does.
 * {@code index} and {@code create} store their document; {@code delete} and {@code update} are
 * answered, per item, as not supported. A batch the engine refuses for now (memory) makes its items
 * and all that follow a 429; when nothing of the request was stored, the whole request is a 429
 * with {@code Retry-After}, which shippers send again.
 */
final class BulkIngest {
  static final int BATCH_ROWS = 4096;
  private static final SecureRandom IDS = new SecureRandom();

  private final Catalog catalog;
  private final ObjectMapper mapper;
  private final Documents documents;
  private final String warehouse;
  private final String defaultIndex;

  /** Every item's answer, in request order: its action and its result object. */
  private final List<Map.Entry<String, ObjectNode>> items = new ArrayList<>();

  /** The rows waiting per table. */
  private final Map<String, Pending> pending = new LinkedHashMap<>();

  private final Map<String, Source> tables = new HashMap<>();
  private long stored;
  private ApiException refused;

  private static final class Pending {
    final Source source;
    final List<Event> events = new ArrayList<>();
    final List<ObjectNode> results = new ArrayList<>();

    Pending(Source source) {
      this.source = source;
    }
  }

  /**
   * @param catalog the tables
   * @param mapper reads the lines and builds the answer
   * @param warehouse the service's warehouse
   * @param defaultIndex the index of the request's path, {@code null} for {@code /_bulk}
   */
  BulkIngest(Catalog catalog, ObjectMapper mapper, String warehouse, String defaultIndex) {
    this.catalog = catalog;
    this.mapper = mapper;
    this.documents = new Documents(mapper);
    this.warehouse = warehouse;
    this.defaultIndex = defaultIndex;
  }

  /**
   * Reads and stores the body.
   *
   * @param body the whole request body
   * @return the answer: {@code took}, {@code errors}, {@code items}
   * @throws ApiException 400 when the body has no action at all, 429 when nothing could be stored
   *     for now
   */
  ObjectNode run(byte[] body) {
    long start = System.nanoTime();
    int pos = 0;
    int line = 0;
    while (pos < body.length) {
      int end = lineEnd(body, pos);
      int next = end + 1;
      line++;
      if (blank(body, pos, end)) {
        pos = next;
        continue;
      }
      JsonNode action;
      try {
        action = mapper.readTree(body, pos, end - pos);
      } catch (java.io.IOException e) {
        throw ApiException.badRequest(
            "line " + line + ": not a bulk action (" + e.getMessage().split("\n")[0] + ")");
      }
      if (action == null || !action.isObject() || action.size() != 1) {
        throw ApiException.badRequest(
            "line "
                + line
                + ": a bulk action is an object with one of index, create, delete,"
                + " update");
      }
      String op = action.fieldNames().next();
      JsonNode meta = action.get(op);
      switch (op) {
        case "index", "create" -> {
          int srcEnd = next < body.length ? lineEnd(body, next) : -1;
          if (srcEnd < 0 || blank(body, next, srcEnd)) {
            throw ApiException.badRequest(
                "line " + line + ": the " + op + " action has no document on the next line");
          }
          document(op, meta, body, next, srcEnd);
          line++;
          next = srcEnd + 1;
        }
        case "delete" -> unsupported(op, meta);
        case "update" -> {
          unsupported(op, meta);
          int srcEnd = next < body.length ? lineEnd(body, next) : body.length;
          line++;
          next = srcEnd + 1;
        }
        default ->
            throw ApiException.badRequest(
                "line "
                    + line
                    + ": unknown bulk action '"
                    + op
                    + "' (index, create, delete or update)");
      }
      pos = next;
    }
    if (items.isEmpty()) {
      throw ApiException.badRequest("the request body holds no bulk action");
    }
    for (Pending p : pending.values()) {
      flush(p);
    }
    if (stored == 0 && refused != null) {
      throw refused;
    }
    ObjectNode answer = mapper.createObjectNode();
    answer.put("took", (System.nanoTime() - start) / 1_000_000);
    boolean errors = false;
    var array = mapper.createArrayNode();
    for (Map.Entry<String, ObjectNode> item : items) {
      errors |= item.getValue().has("error");
      array.addObject().set(item.getKey(), item.getValue());
    }
    answer.put("errors", errors);
    answer.set("items", array);
    return answer;
  }

  private void document(String op, JsonNode meta, byte[] body, int from, int to) {
    String index = meta.path("_index").asText(defaultIndex);
    String id =
        meta.hasNonNull("_id") && meta.get("_id").isValueNode() ? meta.get("_id").asText() : null;
    ObjectNode result = result(op, index, id == null ? newId() : id);
    if (index == null || index.isEmpty()) {
      fail(result, 400, "action_request_validation_exception", "an index is required");
      return;
    }
    Source source;
    try {
      source = source(index);
    } catch (ApiException e) {
      fail(result, e.code().status(), "illegal_argument_exception", e.getMessage());
      return;
    }
    String tsField = source.spec().timestampColumn();
    Map<String, Object> fields;
    long millis;
    try {
      fields = documents.read(body, from, to);
      Object ts = fields.remove(tsField);
      String named = tsField;
      if (ts == null && tsField.equals(ElasticRoutes.TIMESTAMP)) {
        ts = fields.remove("timestamp"); // Vector's and some loggers' name for it
        named = "timestamp";
      }
      if (ts == null) {
        throw new Documents.Invalid(tsField + ": is required (the document's event time)");
      }
      millis = Documents.millis(named, ts);
    } catch (Documents.Invalid e) {
      fail(result, 400, "document_parsing_exception", e.getMessage());
      return;
    }
    if (id != null) {
      fields.put("_id", id);
    }
    Pending p = pending.computeIfAbsent(source.id(), k -> new Pending(source));
    p.events.add(new Event(millis, fields));
    p.results.add(result);
    if (p.events.size() >= BATCH_ROWS) {
      flush(p);
    }
  }

  private Source source(String index) {
    String table = IndexNames.table(index);
    Source s = tables.get(table);
    if (s == null) {
      s = ElasticRoutes.table(catalog, mapper, warehouse, table);
      tables.put(table, s);
    }
    return s;
  }

  private void flush(Pending p) {
    if (p.events.isEmpty()) {
      return;
    }
    if (refused == null) {
      try {
        AppendResult r = p.source.appendBatch(p.events);
        for (AppendResult.Rejection x : r.rejections()) {
          fail(p.results.get(x.index()), 400, "document_parsing_exception", x.reason());
        }
        stored += p.events.size() - r.rejections().size();
      } catch (RuntimeException e) {
        ApiException a = WriteRefusals.answer(e, stored + " documents of this request were stored");
        refused =
            a.headers().containsKey("Retry-After")
                ? new ApiException(ErrorCode.TOO_MANY_REQUESTS, a.getMessage(), a.headers())
                : a;
      }
    }
    if (refused != null) {
      String type =
          refused.code() == ErrorCode.TOO_MANY_REQUESTS
              ? "es_rejected_execution_exception"
              : "chartwell_exception";
      for (ObjectNode r : p.results) {
        if (!r.has("error")) {
          fail(r, refused.code().status(), type, refused.getMessage());
        }
      }
    }
    p.events.clear();
    p.results.clear();
  }

  private void unsupported(String op, JsonNode meta) {
    ObjectNode r =
        result(op, meta.path("_index").asText(defaultIndex), meta.path("_id").asText(""));
    fail(
        r,
        400,
        "illegal_argument_exception",
        "the "
            + op
            + " action is not supported: Chartwell appends log events; it does not change or"
            + " delete them");
  }

  private ObjectNode result(String op, String index, String id) {
    ObjectNode r = mapper.createObjectNode();
    r.put("_index", index == null ? "" : index);
    r.put("_id", id);
    r.put("_version", 1);
    r.put("result", "created");
    r.putObject("_shards").put("total", 1).put("successful", 1).put("failed", 0);
    r.put("_seq_no", 0);
    r.put("_primary_term", 1);
    r.put("status", 201);
    items.add(Map.entry(op, r));
    return r;
  }

  private static void fail(ObjectNode r, int status, String type, String reason) {
    r.remove(List.of("_version", "result", "_shards", "_seq_no", "_primary_term"));
    r.put("status", status);
    r.putObject("error").put("type", type).put("reason", reason);
  }

  private static String newId() {
    byte[] b = new byte[15];
    IDS.nextBytes(b);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
  }

  private static int lineEnd(byte[] b, int from) {
    for (int i = from; i < b.length; i++) {
      if (b[i] == '\n') {
        return i;
      }
    }
    return b.length;
  }

  private static boolean blank(byte[] b, int from, int to) {
    for (int i = from; i < to; i++) {
      if (b[i] != ' ' && b[i] != '\r' && b[i] != '\t') {
        return false;
      }
    }
    return true;
  }
}
