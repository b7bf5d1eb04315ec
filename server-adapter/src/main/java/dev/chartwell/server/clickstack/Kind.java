package dev.chartwell.server.clickstack;

import dev.chartwell.server.store.Collection;
import java.util.List;

/**
 * The resources of a service under {@code .../clickstack/}, with their path segment, their store,
 * and the stored fields their answers leave out because the document's shape has no place for them
 * (Chartwell keeps creation and update times of every resource).
 */
public enum Kind {
  /** dashboards with their tiles. */
  DASHBOARD("dashboards", Collection.DASHBOARDS, List.of("createdAt", "updatedAt")),
  /** alerts on a tile or a saved search. */
  ALERT("alerts", Collection.ALERTS, List.of()),
  /** notification destinations; their headers and query parameters are write-only. */
  WEBHOOK("webhooks", Collection.WEBHOOKS, List.of("headers", "queryParams")),
  /** saved searches of a source. */
  SAVED_SEARCH("saved-searches", Collection.SAVED_SEARCHES, List.of("createdAt", "updatedAt")),
  /** custom roles (the predefined ones are not stored). */
  ROLE("roles", Collection.ROLES, List.of());

  private final String path;
  private final Collection collection;
  private final List<String> hidden;

  Kind(String path, Collection collection, List<String> hidden) {
    this.path = path;
    this.collection = collection;
    this.hidden = hidden;
  }

  /**
   * @return the path segment, such as {@code saved-searches}
   */
  public String path() {
    return path;
  }

  /**
   * @return where documents of this kind are kept
   */
  Collection collection() {
    return collection;
  }

  /**
   * @return the stored fields the answers leave out
   */
  List<String> hidden() {
    return hidden;
  }

  /**
   * @return what one is called in error texts
   */
  String noun() {
    return collection.noun();
  }
}
