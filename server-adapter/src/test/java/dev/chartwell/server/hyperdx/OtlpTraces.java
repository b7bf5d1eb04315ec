package dev.chartwell.server.hyperdx;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Generated traces as OTLP/JSON request bodies for {@code POST /v1/traces}: a tree of spans where
 * span {@code i > 0} is a child of span {@code (i - 1) / fanOut}, each starting a little after its
 * parent (and 10 µs after its older sibling) and ending before it, services taken in turn from a
 * list, the root a server span.
 */
public final class OtlpTraces {
  private OtlpTraces() {}

  /**
   * @param i a span's number in the tree
   * @return its span id (16 hex digits)
   */
  public static String spanId(int i) {
    return String.format(Locale.ROOT, "%016x", 0x1000L + i);
  }

  /**
   * @param i a span's number
   * @param fanOut children per span
   * @return its depth in the tree (the root is 0)
   */
  public static int depth(int i, int fanOut) {
    int d = 0;
    while (i > 0) {
      i = (i - 1) / fanOut;
      d++;
    }
    return d;
  }

  /**
   * Request bodies holding one trace, at most {@code perRequest} spans each.
   *
   * @param traceId 32 hex digits
   * @param spans how many spans
   * @param fanOut children per span
   * @param startNanos the root's start, epoch nanoseconds
   * @param services the services, taken in turn
   * @param perRequest the most spans per body
   * @return the bodies
   */
  public static List<String> trace(
      String traceId,
      int spans,
      int fanOut,
      long startNanos,
      List<String> services,
      int perRequest) {
    List<String> bodies = new ArrayList<>();
    for (int from = 0; from < spans; from += perRequest) {
      Map<String, StringBuilder> byService = new LinkedHashMap<>();
      for (int i = from; i < Math.min(spans, from + perRequest); i++) {
        String service = services.get(i % services.size());
        StringBuilder sb = byService.computeIfAbsent(service, s -> new StringBuilder());
        if (sb.length() > 0) {
          sb.append(',');
        }
        sb.append(span(traceId, i, fanOut, startNanos));
      }
      StringBuilder body = new StringBuilder("{\"resourceSpans\":[");
      boolean first = true;
      for (Map.Entry<String, StringBuilder> e : byService.entrySet()) {
        body.append(first ? "" : ",")
            .append("{\"resource\":{\"attributes\":[{\"key\":\"service.name\",\"value\":")
            .append("{\"stringValue\":\"")
            .append(e.getKey())
            .append("\"}}]},\"scopeSpans\":[{\"scope\":{\"name\":\"gen\"},\"spans\":[")
            .append(e.getValue())
            .append("]}]}");
        first = false;
      }
      bodies.add(body.append("]}").toString());
    }
    return bodies;
  }

  private static String span(String traceId, int i, int fanOut, long rootStart) {
    int depth = depth(i, fanOut);
    long sibling = i == 0 ? 0 : (i - 1) % fanOut;
    long start = rootStart + depth * 1_000_000L + sibling * 10_000L;
    long end = rootStart + 100_000_000L - depth * 1_000_000L - sibling * 10_000L;
    String parent = i == 0 ? "" : spanId((i - 1) / fanOut);
    boolean error = i % 97 == 5;
    return "{\"traceId\":\""
        + traceId
        + "\",\"spanId\":\""
        + spanId(i)
        + "\",\"parentSpanId\":\""
        + parent
        + "\",\"name\":\""
        + (i == 0 ? "GET /checkout" : "op-" + i)
        + "\",\"kind\":"
        + (i == 0 ? 2 : 3)
        + ",\"startTimeUnixNano\":\""
        + start
        + "\",\"endTimeUnixNano\":\""
        + end
        + "\",\"attributes\":[{\"key\":\"span.number\",\"value\":{\"intValue\":\""
        + i
        + "\"}}],\"events\":["
        + (error
            ? "{\"timeUnixNano\":\""
                + (start + 5)
                + "\",\"name\":\"exception\",\"attributes\":[{\"key\":\"exception.type\","
                + "\"value\":{\"stringValue\":\"Timeout\"}}]}"
            : "")
        + "],\"status\":{\"code\":"
        + (error ? 2 : 1)
        + (error ? ",\"message\":\"deadline exceeded\"" : "")
        + "}}";
  }
}
