package dev.chartwell.server.clickstack;

import dev.chartwell.engine.internal.source.JsonStrings;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The body template of a {@code generic} or {@code incidentio} webhook: text with {@code
 * {{variable}}} (or {@code {{{variable}}}}, the same) replaced by the notification's values,
 * JSON-escaped so that they can stand inside JSON strings, and the conditional blocks HyperDX's
 * forms write: {@code {{#if variable}}...{{else}}...{{/if}}} and {@code {{#if (eq variable
 * "text")}}...{{/if}}}. A template is parsed when the webhook is saved: a variable that does not
 * exist or any other expression is refused, naming it, so that a notification never fails (or goes
 * out half-rendered) because of its template.
 */
public final class WebhookTemplate {
  /** Every variable a template may use, in the order the documentation lists them. */
  public static final List<String> VARIABLES =
      List.of(
          "title",
          "body",
          "link",
          "state",
          "startTime",
          "endTime",
          "eventId",
          "value",
          "threshold",
          "group",
          "alertId");

  /**
   * HyperDX's body for a generic webhook saved without one: the message's parts in one Slack-like
   * {@code text} field.
   */
  public static final String DEFAULT_GENERIC_BODY =
      "{\"text\": \"{{title}} | {{body}} | {{link}} | {{state}} | {{startTime}} | {{endTime}} |"
          + " {{eventId}}\"}";

  /**
   * {@code {{{x}}}} or {@code {{x}}}: the braces of the triple form only when it opens with three.
   */
  private static final Pattern TAG =
      Pattern.compile("\\{\\{\\{(.*?)}}}|\\{\\{(.*?)}}", Pattern.DOTALL);

  private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
  private static final Pattern EQ =
      Pattern.compile("\\(\\s*eq\\s+([A-Za-z_][A-Za-z0-9_]*)\\s+\"([^\"]*)\"\\s*\\)");

  /** A part of a parsed template. */
  private sealed interface Node {}

  private record Text(String text) implements Node {}

  private record Variable(String name) implements Node {}

  /** {@code {{#if}}}: {@code equals} is {@code null} for a truth test of the variable. */
  private record If(String name, String equals, List<Node> then, List<Node> otherwise)
      implements Node {}

  private final List<Node> nodes;

  private WebhookTemplate(List<Node> nodes) {
    this.nodes = nodes;
  }

  /**
   * @param text a template
   * @return the parsed template
   * @throws IllegalArgumentException naming the first problem: an unknown variable, an expression
   *     other than a variable or the supported {@code #if} blocks, an unclosed or unopened block
   */
  public static WebhookTemplate parse(String text) {
    Matcher m = TAG.matcher(text);
    List<List<Node>> stack = new ArrayList<>();
    List<If> open = new ArrayList<>();
    List<Node> current = new ArrayList<>();
    int at = 0;
    while (m.find()) {
      if (m.start() > at) {
        current.add(new Text(text.substring(at, m.start())));
      }
      at = m.end();
      String expr = (m.group(1) != null ? m.group(1) : m.group(2)).strip();
      if (expr.startsWith("#if ")) {
        If block = condition(expr.substring(4).strip(), m.group());
        open.add(block);
        current.add(block);
        stack.add(current);
        current = block.then();
      } else if (expr.equals("else")) {
        If block = innermost(open, m.group());
        if (current != block.then()) {
          throw new IllegalArgumentException("'{{else}}' appears twice in one {{#if}} block");
        }
        current = block.otherwise();
      } else if (expr.equals("/if")) {
        innermost(open, m.group());
        open.remove(open.size() - 1);
        current = stack.remove(stack.size() - 1);
      } else {
        current.add(new Variable(variable(expr, m.group())));
      }
    }
    if (!open.isEmpty()) {
      throw new IllegalArgumentException("a {{#if}} block is not closed with {{/if}}");
    }
    if (at < text.length()) {
      current.add(new Text(text.substring(at)));
    }
    return new WebhookTemplate(List.copyOf(current));
  }

  private static If condition(String cond, String tag) {
    Matcher eq = EQ.matcher(cond);
    if (eq.matches()) {
      return new If(variable(eq.group(1), tag), eq.group(2), new ArrayList<>(), new ArrayList<>());
    }
    if (NAME.matcher(cond).matches()) {
      return new If(variable(cond, tag), null, new ArrayList<>(), new ArrayList<>());
    }
    throw new IllegalArgumentException(
        "unsupported condition in '"
            + tag
            + "': use {{#if variable}} or {{#if (eq variable \"text\")}}");
  }

  private static If innermost(List<If> open, String tag) {
    if (open.isEmpty()) {
      throw new IllegalArgumentException("'" + tag + "' has no {{#if}} before it");
    }
    return open.get(open.size() - 1);
  }

  private static String variable(String name, String tag) {
    if (VARIABLES.contains(name)) {
      return name;
    }
    if (NAME.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "unknown template variable '"
              + name
              + "'; the variables are "
              + String.join(", ", VARIABLES));
    }
    throw new IllegalArgumentException(
        "unsupported template expression '"
            + tag
            + "'; use {{variable}}, {{#if ...}}, {{else}} or {{/if}}");
  }

  /**
   * Renders the template. Values are JSON-escaped (without quotes); a variable without a value
   * renders as nothing and is false in {@code #if}.
   *
   * @param values the variables' values
   * @return the rendered text
   */
  public String render(Map<String, String> values) {
    StringBuilder sb = new StringBuilder();
    render(nodes, values, sb);
    return sb.toString();
  }

  private static void render(List<Node> nodes, Map<String, String> values, StringBuilder sb) {
    for (Node n : nodes) {
      if (n instanceof Text t) {
        sb.append(t.text());
      } else if (n instanceof Variable v) {
        JsonStrings.escape(values.getOrDefault(v.name(), ""), sb);
      } else if (n instanceof If i) {
        String value = values.getOrDefault(i.name(), "");
        boolean holds = i.equals() == null ? !value.isEmpty() : i.equals().equals(value);
        render(holds ? i.then() : i.otherwise(), values, sb);
      }
    }
  }
}
