package dev.chartwell.server.http;

/**
 * A response body that writes its own JSON text as bytes ({@link JsonOutput}), for large answers (a
 * chart of 100,000 rows) whose writing would otherwise cost a tree, a map or a generator call per
 * token on top of the text itself.
 */
public abstract class JsonBody {
  /**
   * Writes the whole value (one JSON object or array).
   *
   * @param out where the text goes
   */
  public abstract void writeTo(JsonOutput out);

  /**
   * @return about how many bytes the JSON text takes, so that the buffer is allocated once
   */
  public abstract int sizeHint();
}
