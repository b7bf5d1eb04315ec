package dev.chartwell.server.clickstack;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * Who sees a webhook's URL. A webhook's URL is often a secret itself: a Slack incoming-webhook URL
 * or an incident.io source URL carries its token in the path, and whoever has it can post to the
 * channel. Answers show it only to callers allowed to manage webhooks, the organization's {@code
 * admin} API keys; read-only {@code developer} keys and service tokens ({@code /api/v2}) get
 * webhooks without {@code url}. Both documents' webhook shapes leave {@code url} optional (their
 * required fields are {@code id}, {@code name}, {@code service}, {@code createdAt} and {@code
 * updatedAt}), so the field is left out rather than given a false value. Headers and query
 * parameters are never shown to anyone ({@link Kind#WEBHOOK}).
 */
public final class WebhookUrls {
  private WebhookUrls() {}

  /**
   * @param mayManage whether the caller may manage webhooks (an admin key)
   * @param webhook a webhook as an API shows it (changed in place)
   * @return the webhook, without its {@code url} unless the caller may manage it
   */
  public static ObjectNode shownTo(boolean mayManage, ObjectNode webhook) {
    if (!mayManage) {
      webhook.remove("url");
    }
    return webhook;
  }

  /**
   * @param mayManage whether the caller may manage webhooks (an admin key)
   * @param webhooks webhooks as an API shows them (changed in place)
   * @return the webhooks, without their {@code url} unless the caller may manage them
   */
  public static List<ObjectNode> shownTo(boolean mayManage, List<ObjectNode> webhooks) {
    webhooks.forEach(w -> shownTo(mayManage, w));
    return webhooks;
  }
}
