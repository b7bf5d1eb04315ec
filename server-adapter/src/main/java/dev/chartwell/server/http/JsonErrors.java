package dev.chartwell.server.http;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * What is wrong with a JSON text, in our words: Jackson's messages name its own classes and options
 * ({@code StreamReadConstraints.getMaxNestingDepth()}, {@code
 * JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS}), which mean nothing to a client. Also the checks
 * Jackson does not make: strict UTF-8 (it decodes overlong forms such as {@code C0 AF} as {@code
 * /}) and numbers too large for a double.
 */
public final class JsonErrors {
  private static final Pattern QUALIFIED = Pattern.compile("\\b(?:[a-z][a-z0-9_]*\\.)+[A-Z]\\w*");
  private static final Pattern OPTION = Pattern.compile("\\b[A-Z][A-Za-z]+\\.[A-Z][A-Z_]{2,}\\b");
  private static final Pattern METHOD = Pattern.compile("\\b[A-Z]?\\w*\\.\\w+\\(\\)");
  private static final Pattern CLASS_NOTE = Pattern.compile("\\(class [^)]*\\)");

  private JsonErrors() {}

  /**
   * @param e a Jackson read failure
   * @return what is wrong, without Jackson's class and option names
   */
  public static String describe(JsonProcessingException e) {
    JsonLocation loc = e.getLocation();
    String where =
        loc == null || loc.getLineNr() < 0
            ? ""
            : " at line " + loc.getLineNr() + ", column " + loc.getColumnNr();
    return "malformed JSON" + where + ": " + what(e);
  }

  /**
   * @param e a Jackson read failure of one NDJSON line or array element
   * @return what is wrong, with the column (the caller reports the line)
   */
  public static String describeInLine(JsonProcessingException e) {
    JsonLocation loc = e.getLocation();
    String where = loc == null || loc.getColumnNr() < 0 ? "" : " at column " + loc.getColumnNr();
    return "malformed JSON" + where + ": " + what(e);
  }

  private static String what(JsonProcessingException e) {
    String raw = e.getOriginalMessage() == null ? "invalid JSON" : e.getOriginalMessage();
    int nl = raw.indexOf('\n');
    String first = nl >= 0 ? raw.substring(0, nl) : raw;
    String lower = first.toLowerCase(Locale.ROOT);
    String what;
    if (lower.contains("nesting depth")) {
      what = "nested deeper than " + Json.MAX_NESTING_DEPTH + " levels";
    } else if (lower.contains("non-standard token")
        || lower.contains("nan")
            && (lower.contains("not allowed") || lower.contains("non_numeric"))) {
      what = "NaN and Infinity are not JSON numbers";
    } else if (lower.contains("number value length") || lower.contains("number length")) {
      what = "a number has too many digits";
    } else if (lower.contains("string value length") || lower.contains("string length")) {
      what = "a string is too long";
    } else if (lower.contains("invalid utf-8") || lower.contains("invalid utf8")) {
      what = "invalid UTF-8";
    } else if (lower.contains("unexpected end-of-input")) {
      what = "unexpected end of input";
    } else {
      what = scrub(first);
    }
    return what;
  }

  /** Removes anything that reads as a Java class, option or method name. */
  static String scrub(String text) {
    String s = CLASS_NOTE.matcher(text).replaceAll("");
    s = METHOD.matcher(s).replaceAll("a limit");
    s = OPTION.matcher(s).replaceAll("an option");
    s = QUALIFIED.matcher(s).replaceAll("a value");
    return s.replaceAll("\\s+", " ").strip();
  }

  /**
   * @param bytes the bytes of a request body
   * @return where the first invalid UTF-8 sequence starts (overlong forms, encoded surrogates,
   *     bytes F5-FF, truncated or stray continuation bytes), or -1 when the bytes are valid
   */
  public static int invalidUtf8At(byte[] bytes) {
    CharsetDecoder decoder =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(bytes);
    java.nio.CharBuffer out = java.nio.CharBuffer.allocate(8192);
    while (true) {
      CoderResult r = decoder.decode(in, out, true);
      if (r.isError()) {
        return in.position();
      }
      if (r.isUnderflow()) {
        r = decoder.flush(out);
        return r.isError() ? in.position() : -1;
      }
      out.clear();
    }
  }

  /**
   * @param bytes UTF-8 bytes
   * @return their text
   * @throws CharacterCodingException when they are not strict UTF-8
   */
  public static String strictUtf8(byte[] bytes, int offset, int length)
      throws CharacterCodingException {
    return StandardCharsets.UTF_8
        .newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT)
        .decode(ByteBuffer.wrap(bytes, offset, length))
        .toString();
  }

  /**
   * @param node a parsed JSON tree
   * @return the path of the first number too large for a double (such as {@code 1e309}), or null
   */
  public static String nonFiniteNumberPath(JsonNode node) {
    return nonFinite(node, "");
  }

  private static String nonFinite(JsonNode node, String path) {
    if (node.isNumber()) {
      return node.isFloatingPointNumber() && !Double.isFinite(node.doubleValue())
          ? (path.isEmpty() ? "(the body)" : path)
          : null;
    }
    if (node.isObject()) {
      Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
      while (fields.hasNext()) {
        Map.Entry<String, JsonNode> f = fields.next();
        String found =
            nonFinite(f.getValue(), path.isEmpty() ? f.getKey() : path + "." + f.getKey());
        if (found != null) {
          return found;
        }
      }
    } else if (node.isArray()) {
      for (int i = 0; i < node.size(); i++) {
        String found = nonFinite(node.get(i), path + "[" + i + "]");
        if (found != null) {
          return found;
        }
      }
    }
    return null;
  }
}
