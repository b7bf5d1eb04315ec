package dev.chartwell.server.hyperdx;

import dev.chartwell.server.charts.ServicePrincipal;
import dev.chartwell.server.http.ApiException;
import dev.chartwell.server.http.Request;
import dev.chartwell.server.http.Response;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What the {@code /api/v2} routes share: the caller, the envelopes, paging. */
final class V2 {
  static final String BASE = "/api/v2";

  /** The most items a page of a list may hold, and its default. */
  static final int MAX_PAGE = 1000;

  private V2() {}

  /**
   * @param req a request
   * @param write whether it changes something (a read-only service may only read)
   * @return the calling service
   */
  static ServicePrincipal caller(Request req, boolean write) {
    ServicePrincipal p = req.principal(ServicePrincipal.class);
    if (write) {
      p.requireWritable();
    }
    return p;
  }

  /**
   * @param data the answer
   * @return {@code 200 {"data": data}}
   */
  static Response data(Object data) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("data", data);
    return Response.json(200, m);
  }

  /**
   * @return {@code 200 {}}, the answer to a DELETE
   */
  static Response empty() {
    return Response.json(200, Map.of());
  }

  /**
   * A page of a list ({@code ?limit=&offset=}, limit 1 to {@value #MAX_PAGE}, default {@value
   * #MAX_PAGE}; offset from 0).
   *
   * @param req the request
   * @param all every item, in order
   * @return {@code {"data": page, "meta": {"total", "limit", "offset"}}}
   */
  static Response page(Request req, List<?> all) {
    int limit = intParam(req, "limit", MAX_PAGE, 1, MAX_PAGE);
    int offset = intParam(req, "offset", 0, 0, Integer.MAX_VALUE);
    List<?> page =
        all.subList(
            Math.min(offset, all.size()), (int) Math.min(all.size(), (long) offset + limit));
    Map<String, Object> meta = new LinkedHashMap<>();
    meta.put("total", all.size());
    meta.put("limit", limit);
    meta.put("offset", offset);
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("data", page);
    m.put("meta", meta);
    return Response.json(200, m);
  }

  private static int intParam(Request req, String name, int dflt, int min, int max) {
    String v = req.queryParam(name).orElse(null);
    if (v == null) {
      return dflt;
    }
    try {
      int n = Integer.parseInt(v);
      if (n >= min && n <= max) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw ApiException.badRequest(
        name
            + ": must be an integer "
            + (max == Integer.MAX_VALUE ? "of at least " + min : "from " + min + " to " + max)
            + ", got '"
            + v
            + "'");
  }
}
