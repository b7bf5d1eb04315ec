package dev.chartwell.server.shippers;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.chartwell.engine.AppendResult;
import dev.chartwell.engine.Event;
import dev.chartwell.engine.EventBatch;
import dev.chartwell.engine.Source;
import dev.chartwell.server.catalog.Catalog;
import dev.chartwell.server.charts.LineParser;
import dev.chartwell.server.charts.WriteRefusals;
import dev.chartwell.server.http.ApiException;
import dev.chartwell.server.http.ErrorCode;
import java.util.ArrayList;
import java.util.Arrays;
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
 *
 * <p>Source lines are read as our NDJSON ingestion reads its lines: from their bytes straight into
 * the table's {@link EventBatch} by the same {@link LineParser}, and the lines it leaves (arrays,
 * unusual numbers or timestamps, anything invalid) by {@link Documents}, which gives the same event
 * or says what is wrong with the document.
 */
final class BulkIngest {
  static final int BATCH_ROWS = 8192; // as our NDJSON route's

  private final Catalog catalog;
  private final ObjectMapper mapper;
  private final Documents documents;
  private final String warehouse;
  private final String defaultIndex;

  /** Every item, in request order. */
  private final List<Item> items = new ArrayList<>();

  /** Each index named in the request: its {@link Table}, or the {@link ApiException} it got. */
  private final Map<String, Object> indices = new HashMap<>();

  /** The tables written, by name, in the order the request first names them (flushed so). */
  private final Map<String, Table> tables = new LinkedHashMap<>();

  private long stored;
  private ApiException refused;

  /** An item's answer: {@code status} 201 until an error is set. */
  private static final class Item {
    final String op;
    final String index;
    final String id;
    int status = 201;
    String errorType;
    String reason;

    Item(String op, String index, String id) {
      this.op = op;
      this.index = index == null ? "" : index;
      this.id = id;
    }

    void fail(int status, String type, String reason) {
      this.status = status;
      this.errorType = type;
      this.reason = reason;
    }
  }

  /** A table written by the request: its batch being filled and the items of its rows. */
  private static final class Table {
    final Source source;
    final EventBatch batch = new EventBatch();
    final LineParser parser;
    Item[] rows = new Item[256];
    int idField = -1;

    Table(Source source) {
      this.source = source;
      this.parser = new LineParser(source.spec().timestampColumn(), batch);
    }

    /** The batch's last event is this item's. */
    void added(Item item) {
      int row = batch.size() - 1;
      if (row == rows.length) {
        rows = Arrays.copyOf(rows, 2 * row);
      }
      rows[row] = item;
    }

    int idField() {
      if (idField < 0) {
        idField = batch.field("_id");
      }
      return idField;
    }
  }

  /**
   * @param catalog the tables
   * @param mapper reads the lines the byte readers leave, and writes the answer
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
   * @return the answer, JSON: {@code took}, {@code errors}, {@code items}
   * @throws ApiException 400 when the body has no action at all or a line is not an action, 429
   *     when nothing could be stored for now
   */
  byte[] run(byte[] body) {
    long start = System.nanoTime();
    // Every action line is read first, so that a request with a line that is not an action is
    // refused whole before anything of it is stored, as Elasticsearch does.
    List<BulkActions.Action> actions = new ArrayList<>();
    int[] documents = new int[64]; // where each action's document starts, -1 for none
    int pos = 0;
    int line = 0;
    while (pos < body.length) {
      int end = lineEnd(body, pos);
      line++;
      if (blank(body, pos, end)) {
        pos = end + 1;
        continue;
      }
      BulkActions.Action action = BulkActions.read(mapper, body, pos, end, line, defaultIndex);
      pos = end + 1;
      int document = -1;
      if (action.op().equals("index") || action.op().equals("create")) {
        int documentEnd = pos < body.length ? lineEnd(body, pos) : pos;
        if (pos >= body.length || blank(body, pos, documentEnd)) {
          throw ApiException.badRequest(
              "line " + line + ": the " + action.op() + " action has no document on the next line");
        }
        document = pos;
        line++;
        pos = documentEnd + 1;
      } else if (action.op().equals("update")) {
        line++;
        pos = lineEnd(body, Math.min(pos, body.length)) + 1;
      }
      if (actions.size() == documents.length) {
        documents = Arrays.copyOf(documents, 2 * documents.length);
      }
      documents[actions.size()] = document;
      actions.add(action);
    }
    for (int i = 0; i < actions.size(); i++) {
      if (documents[i] >= 0) {
        document(actions.get(i), body, documents[i]);
      } else {
        unsupported(actions.get(i));
      }
    }
    if (items.isEmpty()) {
      throw ApiException.badRequest("the request body holds no bulk action");
    }
    for (Table t : tables.values()) {
      flush(t);
    }
    if (stored == 0 && refused != null) {
      throw refused;
    }
    return answer((System.nanoTime() - start) / 1_000_000);
  }

  /** Stores (or answers) the document of the source line at {@code from}, not blank. */
  private void document(BulkActions.Action action, byte[] body, int from) {
    Item item = new Item(action.op(), action.index(), action.id());
    items.add(item);
    if (item.index.isEmpty()) {
      item.fail(400, "action_request_validation_exception", "an index is required");
      return;
    }
    if (refused != null) {
      item.fail(refused.code().status(), refusedType(), refused.getMessage());
      return;
    }
    Object found = indices.computeIfAbsent(item.index, this::table);
    if (found instanceof ApiException e) {
      item.fail(e.code().status(), "illegal_argument_exception", e.getMessage());
      return;
    }
    Table table = (Table) found;
    if (table.parser.parseOpen(body, from, body.length, true) >= 0) {
      if (item.id != null) {
        table.batch.putString(table.idField(), item.id);
      }
      table.batch.endEvent();
      table.added(item);
    } else {
      general(table, item, body, from, lineEnd(body, from));
    }
    if (table.batch.size() >= BATCH_ROWS) {
      flush(table);
    }
  }

  /** A source line the byte reader left: read by {@link Documents}. */
  private void general(Table table, Item item, byte[] body, int from, int to) {
    String tsField = table.source.spec().timestampColumn();
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
      item.fail(400, "document_parsing_exception", e.getMessage());
      return;
    }
    if (item.id != null) {
      fields.put("_id", item.id);
    }
    table.batch.add(new Event(millis, fields));
    table.added(item);
  }

  /** The table of an index (created on first use), or the error its name or creation got. */
  private Object table(String index) {
    try {
      String name = IndexNames.table(index);
      Table t = tables.get(name);
      if (t == null) {
        t = new Table(ElasticRoutes.table(catalog, mapper, warehouse, name));
        tables.put(name, t);
      }
      return t;
    } catch (ApiException e) {
      return e;
    }
  }

  private void flush(Table t) {
    int n = t.batch.size();
    if (n == 0) {
      return;
    }
    if (refused == null) {
      try {
        AppendResult r = t.source.append(t.batch);
        for (AppendResult.Rejection x : r.rejections()) {
          t.rows[x.index()].fail(400, "document_parsing_exception", x.reason());
        }
        stored += n - r.rejections().size();
      } catch (RuntimeException e) {
        ApiException a = WriteRefusals.answer(e, stored + " documents of this request were stored");
        refused =
            a.headers().containsKey("Retry-After")
                ? new ApiException(ErrorCode.TOO_MANY_REQUESTS, a.getMessage(), a.headers())
                : a;
      }
    }
    if (refused != null) {
      for (int i = 0; i < n; i++) {
        if (t.rows[i].errorType == null) {
          t.rows[i].fail(refused.code().status(), refusedType(), refused.getMessage());
        }
      }
    }
    t.batch.clear();
    Arrays.fill(t.rows, 0, n, null);
  }

  private String refusedType() {
    return refused.code() == ErrorCode.TOO_MANY_REQUESTS
        ? "es_rejected_execution_exception"
        : "chartwell_exception";
  }

  private void unsupported(BulkActions.Action action) {
    Item item = new Item(action.op(), action.index(), action.id() == null ? "" : action.id());
    item.fail(
        400,
        "illegal_argument_exception",
        "the "
            + action.op()
            + " action is not supported: Chartwell appends log events; it does not change or"
            + " delete them");
    items.add(item);
  }

  /** The answer, written item by item. */
  private byte[] answer(long took) {
    boolean errors = false;
    for (Item item : items) {
      errors |= item.errorType != null;
    }
    BulkAnswer answer = new BulkAnswer(mapper, items.size(), took, errors);
    for (Item item : items) {
      if (item.errorType == null) {
        answer.created(item.op, item.index, item.id);
      } else {
        answer.failed(item.op, item.index, item.id, item.status, item.errorType, item.reason);
      }
    }
    return answer.finish();
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
