package dev.chartwell.server.shippers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.chartwell.server.http.ApiException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Reads a {@code _bulk} action line: {@code {"<op>":{"_index":"...","_id":"..."}}}. The lines the
 * clients send ({@code {"create":{}}}, {@code {"index":{"_index":"logs"}}}) are read from their
 * bytes; any other (more metadata, escapes, non-ASCII text, a repeated name, not JSON) by Jackson,
 * which gives the same action or says what is wrong.
 */
final class BulkActions {
  /**
   * An action: {@code index}, {@code create}, {@code delete} or {@code update}, and its metadata.
   */
  record Action(String op, String index, String id) {}

  private static final String[] OPS = {"index", "create", "delete", "update"};

  private BulkActions() {}

  /**
   * @param mapper reads the lines the byte reader leaves
   * @param b the body
   * @param from where the line starts
   * @param to where it ends (its newline, exclusive)
   * @param line its number, for messages
   * @param defaultIndex the index of the request's path, or {@code null}
   * @return the action ({@code index} {@code null} when neither the line nor the path names one,
   *     {@code id} {@code null} when the line names none)
   * @throws ApiException 400 when the line is not an action
   */
  static Action read(
      ObjectMapper mapper, byte[] b, int from, int to, int line, String defaultIndex) {
    Action fast = plain(b, from, to, defaultIndex);
    return fast != null ? fast : general(mapper, b, from, to, line, defaultIndex);
  }

  /** The byte reading, or {@code null} for the general one. */
  private static Action plain(byte[] b, int from, int to, String defaultIndex) {
    int[] pos = {from};
    if (!skipTo(b, pos, to, '{') || !skipTo(b, pos, to, '"')) {
      return null;
    }
    String op = null;
    for (String o : OPS) {
      if (literal(b, pos[0], to, o)) {
        op = o;
        pos[0] += o.length();
        break;
      }
    }
    if (op == null
        || !skipTo(b, pos, to, '"')
        || !skipTo(b, pos, to, ':')
        || !skipTo(b, pos, to, '{')) {
      return null;
    }
    String index = null;
    String id = null;
    boolean first = true;
    while (true) {
      skipSpace(b, pos, to);
      if (pos[0] < to && b[pos[0]] == '}') {
        pos[0]++;
        break;
      }
      if (!first && !skipTo(b, pos, to, ',')) {
        return null;
      }
      first = false;
      if (!skipTo(b, pos, to, '"')) {
        return null;
      }
      String name = text(b, pos, to);
      if (name == null || !skipTo(b, pos, to, ':') || !skipTo(b, pos, to, '"')) {
        return null;
      }
      String value = text(b, pos, to);
      if (value == null) {
        return null;
      }
      if (name.equals("_index") && index == null) {
        index = value;
      } else if (name.equals("_id") && id == null) {
        id = value;
      } else {
        return null;
      }
    }
    if (!skipTo(b, pos, to, '}')) {
      return null;
    }
    skipSpace(b, pos, to);
    if (pos[0] != to) {
      return null;
    }
    return new Action(op, index != null ? index : defaultIndex, id);
  }

  /** A string whose opening quote was read: plain printable ASCII without escapes, or null. */
  private static String text(byte[] b, int[] pos, int to) {
    int start = pos[0];
    for (int i = start; i < to; i++) {
      byte c = b[i];
      if (c == '"') {
        pos[0] = i + 1;
        return new String(b, start, i - start, StandardCharsets.ISO_8859_1);
      }
      if (c < 0x20 || c == '\\' || c == 0x7F) { // also every non-ASCII byte
        return null;
      }
    }
    return null;
  }

  private static boolean literal(byte[] b, int at, int to, String word) {
    if (at + word.length() > to) {
      return false;
    }
    for (int i = 0; i < word.length(); i++) {
      if (b[at + i] != word.charAt(i)) {
        return false;
      }
    }
    return true;
  }

  /** Skips spaces, then the character {@code c}; whether it was there. */
  private static boolean skipTo(byte[] b, int[] pos, int to, char c) {
    skipSpace(b, pos, to);
    if (pos[0] < to && b[pos[0]] == c) {
      pos[0]++;
      return true;
    }
    return false;
  }

  private static void skipSpace(byte[] b, int[] pos, int to) {
    while (pos[0] < to && (b[pos[0]] == ' ' || b[pos[0]] == '\t' || b[pos[0]] == '\r')) {
      pos[0]++;
    }
  }

  private static Action general(
      ObjectMapper mapper, byte[] b, int from, int to, int line, String defaultIndex) {
    JsonNode action;
    try {
      action = mapper.readTree(b, from, to - from);
    } catch (IOException e) {
      throw ApiException.badRequest(
          "line " + line + ": not a bulk action (" + e.getMessage().split("\n")[0] + ")");
    }
    if (action == null || !action.isObject() || action.size() != 1) {
      throw ApiException.badRequest(
          "line "
              + line
              + ": a bulk action is an object with one of index, create, delete, update");
    }
    String op = action.fieldNames().next();
    if (!java.util.List.of(OPS).contains(op)) {
      throw ApiException.badRequest(
          "line " + line + ": unknown bulk action '" + op + "' (index, create, delete or update)");
    }
    JsonNode meta = action.get(op);
    JsonNode id = meta.get("_id");
    return new Action(
        op,
        meta.path("_index").asText(defaultIndex),
        id != null && !id.isNull() && id.isValueNode() ? id.asText() : null);
  }
}
