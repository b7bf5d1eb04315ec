package dev.chartwell.server.docs;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Compares an output block of the docs with what its command printed, tolerantly but for real:
 *
 * <ul>
 *   <li><b>JSON</b>: the block must have the shape of one of the JSON values printed: the same
 *       field names in every object, the same JSON type for every value (any number for a number,
 *       any string for a string, a string {@code "..."} for anything), each element of a shown
 *       array like some element of the printed array. Values themselves (ids, times, counts) may
 *       differ.
 *   <li><b>Text</b>: each non-blank line of the block must match a printed line, in order (other
 *       printed lines may come between), where {@code ...} stands for any text, a number for any
 *       number, a word of 16 or more letters, digits, {@code -} and {@code _} (an id, token or
 *       secret) for any such word, and 7 to 15 hex digits (a commit) for any hex digits.
 * </ul>
 *
 * Where the block shows an id-like string and the run printed another, the pair is learnt: the
 * document's later commands, which use the example value, are run with the real one.
 */
final class OutputMatch {
  static final ObjectMapper JSON = new ObjectMapper().enable(JsonParser.Feature.ALLOW_COMMENTS);
  private static final Pattern ID = Pattern.compile("[A-Za-z0-9_-]{16,}");
  private static final Pattern TOKEN =
      Pattern.compile(
          "[A-Za-z0-9_-]*\\.\\.\\.|[A-Za-z0-9_-]{16,}|(?<![\\w-])[0-9a-f]{7,15}(?![\\w-])"
              + "|-?\\d+(?:\\.\\d+)?");
  private static final Pattern COMMIT = Pattern.compile("[0-9a-f]{7,15}");

  /** Example value → the value the run printed, in the order learnt. */
  final Map<String, String> learnt = new LinkedHashMap<>();

  /** Every JSON value in a command's output (several commands print several). */
  static List<JsonNode> jsonValues(String printed) {
    List<JsonNode> out = new ArrayList<>();
    try (MappingIterator<JsonNode> it = JSON.readerFor(JsonNode.class).readValues(printed)) {
      while (it.hasNext()) {
        out.add(it.next());
      }
    } catch (IOException | RuntimeException e) {
      // text after the JSON values, or no JSON at all: what was read is what there is
    }
    return out;
  }

  /**
   * @return null when each JSON value of the block (one, or one per line for several commands) has
   *     the shape of a printed value, else why not
   */
  String json(String block, String printed) {
    List<JsonNode> shown = new ArrayList<>();
    try (MappingIterator<JsonNode> it = JSON.readerFor(JsonNode.class).readValues(block)) {
      while (it.hasNext()) {
        shown.add(it.next());
      }
    } catch (IOException | RuntimeException e) {
      return "the block is not JSON: " + e.getMessage();
    }
    List<JsonNode> values = jsonValues(printed);
    for (JsonNode one : shown) {
      String why = "the command printed no JSON";
      for (JsonNode value : values) {
        Map<String, String> pairs = new LinkedHashMap<>();
        why = shape("$", one, value, pairs);
        if (why == null) {
          pairs.forEach(learnt::putIfAbsent);
          break;
        }
      }
      if (why != null) {
        return why + (values.isEmpty() ? "" : " (" + values.size() + " JSON values printed)");
      }
    }
    return null;
  }

  private static String shape(String path, JsonNode doc, JsonNode run, Map<String, String> pairs) {
    if (doc.isTextual() && doc.textValue().equals("...")) {
      return null;
    }
    if (doc.isNumber() ? !run.isNumber() : doc.getNodeType() != run.getNodeType()) {
      return path + ": the docs show " + doc.getNodeType() + ", the server answered " + run;
    }
    if (doc.isTextual() && !doc.equals(run) && ID.matcher(doc.textValue()).matches()) {
      pairs.put(doc.textValue(), run.textValue());
    }
    if (doc.isObject()) {
      TreeSet<String> shown = new TreeSet<>();
      doc.fieldNames().forEachRemaining(shown::add);
      TreeSet<String> got = new TreeSet<>();
      run.fieldNames().forEachRemaining(got::add);
      if (!shown.equals(got)) {
        TreeSet<String> extra = new TreeSet<>(shown);
        extra.removeAll(got);
        got.removeAll(shown);
        return path + ": fields only in the docs " + extra + ", only in the answer " + got;
      }
      for (Iterator<String> it = doc.fieldNames(); it.hasNext(); ) {
        String f = it.next();
        String d = shape(path + "." + f, doc.get(f), run.get(f), pairs);
        if (d != null) {
          return d;
        }
      }
    }
    if (doc.isArray()) {
      for (int i = 0; i < doc.size(); i++) {
        String first = null;
        boolean found = false;
        for (JsonNode element : run) {
          Map<String, String> p = new LinkedHashMap<>();
          String d = shape(path + "[" + i + "]", doc.get(i), element, p);
          if (d == null) {
            pairs.putAll(p);
            found = true;
            break;
          }
          first = first == null ? d : first;
        }
        if (!found) {
          return first != null ? first : path + ": the answer's array is empty";
        }
      }
    }
    return null;
  }

  /**
   * @return null when every line of the text block matches a printed line in order, else why not
   */
  String text(String block, String printed) {
    String[] got = printed.split("\n");
    int at = 0;
    for (String line : block.split("\n")) {
      if (line.isBlank()) {
        continue;
      }
      Pattern p = linePattern(line.strip());
      boolean found = false;
      while (at < got.length && !found) {
        Matcher m = p.matcher(got[at++].strip());
        if (m.matches()) {
          found = true;
          learnFrom(line.strip(), m);
        }
      }
      if (!found) {
        return "no printed line (in order) matches the docs' line '" + line.strip() + "'";
      }
    }
    return null;
  }

  private void learnFrom(String line, Matcher m) {
    Matcher t = TOKEN.matcher(line);
    int group = 0;
    while (t.find()) {
      group++;
      String shown = t.group();
      if (ID.matcher(shown).matches() && !shown.equals(m.group(group))) {
        learnt.putIfAbsent(shown, m.group(group));
      }
    }
  }

  /** A docs line as a pattern: {@code ...}, numbers and id-like words are wildcards. */
  static Pattern linePattern(String line) {
    StringBuilder re = new StringBuilder();
    Matcher t = TOKEN.matcher(line);
    int last = 0;
    while (t.find()) {
      re.append(Pattern.quote(line.substring(last, t.start())));
      String s = t.group();
      re.append(
          s.endsWith("...")
              ? "(.*?)"
              : ID.matcher(s).matches()
                  ? "([A-Za-z0-9_-]+)"
                  : COMMIT.matcher(s).matches() ? "([0-9a-f]+)" : "(-?\\d+(?:\\.\\d+)?)");
      last = t.end();
    }
    re.append(Pattern.quote(line.substring(last)));
    return Pattern.compile(re.toString());
  }

  /** A command with the learnt example values replaced by the real ones. */
  String apply(String command) {
    String out = command;
    for (Map.Entry<String, String> e : learnt.entrySet()) {
      out = out.replace(e.getKey(), e.getValue());
    }
    return out;
  }
}
