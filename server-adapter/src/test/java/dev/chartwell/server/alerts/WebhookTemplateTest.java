package dev.chartwell.server.alerts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.chartwell.server.clickstack.WebhookTemplate;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Webhook body templates: variables, JSON escaping, conditions, and what is refused. */
class WebhookTemplateTest {
  static final Map<String, String> VALUES =
      Map.of(
          "title",
          "🚨 Alert for \"Errors\"",
          "body",
          "line 1\nline 2\t\\ done",
          "state",
          "ALERT",
          "value",
          "12",
          "group",
          "");

  @Test
  void variablesAreJsonEscapedSoTheBodyStaysJson() throws Exception {
    String out =
        WebhookTemplate.parse("{\"t\":\"{{title}}\",\"b\":\"{{{ body }}}\",\"v\":{{value}}}")
            .render(VALUES);
    assertEquals(
        "{\"t\":\"🚨 Alert for \\\"Errors\\\"\",\"b\":\"line 1\\nline 2\\t\\\\ done\",\"v\":12}",
        out);
    var parsed = new ObjectMapper().readTree(out);
    assertEquals("line 1\nline 2\t\\ done", parsed.get("b").textValue());
  }

  @Test
  void conditionsOfHyperDxForms() {
    WebhookTemplate t =
        WebhookTemplate.parse(
            "{{#if (eq state \"ALERT\")}}firing{{else}}resolved{{/if}}"
                + "|{{#if group}}g={{group}}{{else}}none{{/if}}|{{#if title}}{{#if body}}both{{/if}}{{/if}}");
    assertEquals("firing|none|both", t.render(VALUES));
    assertEquals(
        "resolved|g=x|", t.render(Map.of("state", "OK", "group", "x", "title", "", "body", "b")));
  }

  @Test
  void theDefaultBodyIsHyperDxs() {
    WebhookTemplate.parse(WebhookTemplate.DEFAULT_GENERIC_BODY);
    assertEquals(
        "{\"text\": \"🚨 Alert for \\\"Errors\\\" | line 1\\nline 2\\t\\\\ done |  | ALERT |  |  | \"}",
        WebhookTemplate.parse(WebhookTemplate.DEFAULT_GENERIC_BODY).render(VALUES));
  }

  @Test
  void bracesThatAreNotTagsStayText() {
    assertEquals(
        "{\"a\":{\"v\":12}}", WebhookTemplate.parse("{\"a\":{\"v\":{{value}}}}").render(VALUES));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "{{severity}} | unknown template variable 'severity'; the variables are title, body, link,"
            + " state, startTime, endTime, eventId, value, threshold, group, alertId",
        "{{alert.name}} | unsupported template expression '{{alert.name}}'; use {{variable}},"
            + " {{#if ...}}, {{else}} or {{/if}}",
        "{{#each x}}{{/each}} | unsupported template expression '{{#each x}}'; use {{variable}},"
            + " {{#if ...}}, {{else}} or {{/if}}",
        "{{#if state}}x | a {{#if}} block is not closed with {{/if}}",
        "x{{/if}} | '{{/if}}' has no {{#if}} before it",
        "{{#if (gt value 3)}}x{{/if}} | unsupported condition in '{{#if (gt value 3)}}': use {{#if"
            + " variable}} or {{#if (eq variable \"text\")}}",
        "{{#if (eq nope \"x\")}}{{/if}} | unknown template variable 'nope'; the variables are title,"
            + " body, link, state, startTime, endTime, eventId, value, threshold, group, alertId",
      })
  void refusedTemplatesNameTheProblem(String template, String message) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> WebhookTemplate.parse(template));
    assertEquals(message, e.getMessage());
  }
}
