package dev.chartwell.server.shippers;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;

/**
 * Writes a {@code _bulk} answer as Elasticsearch gives it, {@code
 * {"took":..,"errors":..,"items":[{"create":{"_index":..,"_id":..,...,"status":201}},...]}},
 * straight into bytes: an answer has an item per document, and most of each item is the same. Text
 * of plain ASCII is written as it is; other text is quoted by Jackson. A document the request gave
 * no id gets one here: 20 characters of URL-safe base64, random per request and counted within it.
 */
final class BulkAnswer {
  private static final SecureRandom IDS = new SecureRandom();
  private static final byte[] BASE64 =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
          .getBytes(StandardCharsets.US_ASCII);
  private static final byte[] CREATED =
      ascii(
          ",\"_version\":1,\"result\":\"created\",\"_shards\":{\"total\":1,\"successful\":1,"
              + "\"failed\":0},\"_seq_no\":0,\"_primary_term\":1,\"status\":201}}");

  private final ObjectMapper mapper;
  private byte[] out;
  private int size;
  private boolean first = true;
  private String lastText;
  private byte[] lastQuoted;
  private byte[] idPrefix;
  private long idCount;

  /**
   * @param mapper quotes text that is not plain ASCII
   * @param items the number of items, to size the buffer
   * @param took the milliseconds the request took
   * @param errors whether an item failed
   */
  BulkAnswer(ObjectMapper mapper, int items, long took, boolean errors) {
    this.mapper = mapper;
    this.out = new byte[64 + 160 * Math.min(items, 1 << 20)];
    write("{\"took\":" + took + ",\"errors\":" + errors + ",\"items\":[");
  }

  /** An item stored: its action ({@code index} or {@code create}), index and id (null: made). */
  void created(String op, String index, String id) {
    head(op, index, id);
    write(CREATED);
  }

  /** An item that failed, with its status and Elasticsearch's error type and reason. */
  void failed(String op, String index, String id, int status, String type, String reason) {
    head(op, index, id);
    write(",\"status\":" + status + ",\"error\":{\"type\":");
    text(type);
    write(",\"reason\":");
    text(reason);
    write("}}}");
  }

  /**
   * @return the answer's bytes
   */
  byte[] finish() {
    write("]}");
    return Arrays.copyOf(out, size);
  }

  private void head(String op, String index, String id) {
    write(first ? "{\"" : ",{\"");
    first = false;
    write(op);
    write("\":{\"_index\":");
    if (!index.equals(lastText)) {
      lastText = index;
      lastQuoted = quoted(index);
    }
    write(lastQuoted);
    write(",\"_id\":");
    if (id == null) {
      newId();
    } else {
      write(quoted(id));
    }
  }

  /** Writes a new id: a random prefix (per request) and a count, as quoted base64. */
  private void newId() {
    if (idPrefix == null) {
      byte[] random = new byte[9];
      IDS.nextBytes(random);
      idPrefix = Base64.getUrlEncoder().withoutPadding().encode(random); // 12 characters
    }
    ensure(22);
    out[size++] = '"';
    System.arraycopy(idPrefix, 0, out, size, idPrefix.length);
    size += idPrefix.length;
    long n = idCount++;
    for (int shift = 42; shift >= 0; shift -= 6) {
      out[size++] = BASE64[(int) (n >>> shift) & 63];
    }
    out[size++] = '"';
  }

  private void text(String s) {
    write(quoted(s));
  }

  /** {@code s} as a JSON string literal. */
  private byte[] quoted(String s) {
    int n = s.length();
    boolean plain = true;
    for (int i = 0; i < n && plain; i++) {
      char c = s.charAt(i);
      plain = c >= 0x20 && c < 0x7F && c != '"' && c != '\\';
    }
    if (plain) {
      byte[] b = new byte[n + 2];
      b[0] = '"';
      for (int i = 0; i < n; i++) {
        b[i + 1] = (byte) s.charAt(i); // plain ASCII: one byte per character
      }
      b[n + 1] = '"';
      return b;
    }
    try {
      return mapper.writeValueAsBytes(s);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private void write(String ascii) {
    int n = ascii.length();
    ensure(n);
    for (int i = 0; i < n; i++) {
      out[size++] = (byte) ascii.charAt(i);
    }
  }

  private void write(byte[] b) {
    ensure(b.length);
    System.arraycopy(b, 0, out, size, b.length);
    size += b.length;
  }

  private void ensure(int more) {
    if (size + more > out.length) {
      out = Arrays.copyOf(out, Math.max(2 * out.length, size + more));
    }
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }
}
