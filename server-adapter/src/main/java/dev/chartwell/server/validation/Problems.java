package dev.chartwell.server.validation;

import dev.chartwell.server.http.ApiException;
import java.util.ArrayList;
import java.util.List;

/**
 * The problems found in one request body, each with the path of its field ({@code
 * tiles[3].config.select[0].aggFn}) and what is wrong with it, in the order found. One 400 names
 * them all ({@link #throwIfAny}); a validation endpoint can list them one by one ({@link #list}).
 */
public final class Problems {
  /**
   * One problem.
   *
   * @param path the field's path, empty for the body itself
   * @param message what is wrong, in our words
   */
  public record Problem(String path, String message) {
    /**
     * @return {@code path: message}, or the message alone for the body itself
     */
    public String text() {
      return path.isEmpty() ? message : path + ": " + message;
    }
  }

  private final List<Problem> list = new ArrayList<>();

  /**
   * @param path the field's path
   * @param message what is wrong with it
   */
  public void add(String path, String message) {
    list.add(new Problem(path, message));
  }

  /**
   * Adds what {@link Names} found, if anything.
   *
   * @param path the path {@link Names} was given
   * @param text its answer: {@code null}, or a text starting with {@code path + ": "}
   */
  public void addNamed(String path, String text) {
    if (text != null) {
      add(path, text.startsWith(path + ": ") ? text.substring(path.length() + 2) : text);
    }
  }

  /**
   * Checks a name ({@link Names#name(String, String)}).
   *
   * @param path the field's path
   * @param value the name
   */
  public void name(String path, String value) {
    addNamed(path, Names.name(path, value));
  }

  /**
   * Checks a field name or expression ({@link Names#expression}).
   *
   * @param path the field's path
   * @param value the text
   */
  public void expression(String path, String value) {
    addNamed(path, Names.expression(path, value));
  }

  /**
   * @return whether nothing was found
   */
  public boolean isEmpty() {
    return list.isEmpty();
  }

  /**
   * @return how many problems were found so far (to tell whether a check added any)
   */
  public int size() {
    return list.size();
  }

  /**
   * @return the problems, in the order found
   */
  public List<Problem> list() {
    return List.copyOf(list);
  }

  /**
   * @throws ApiException 400 naming every problem, when there is any
   */
  public void throwIfAny() {
    if (!list.isEmpty()) {
      throw ApiException.badRequest(list.stream().map(Problem::text).toList());
    }
  }
}
