package dev.chartwell.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;
import org.quicktheories.generators.SourceDSL;

/**
 * Small generator combinators over QuickTheories, shared by the property tests of every module (the
 * parser publishes its test classes as a test jar).
 */
public final class Gens {
  private Gens() {}

  /**
   * @param chars the characters to draw from
   * @param min shortest length
   * @param max longest length
   * @return strings of those characters
   */
  public static Gen<String> strings(String chars, int min, int max) {
    List<String> each = chars.codePoints().mapToObj(Character::toString).toList();
    return listOf(Generate.pick(each), min, max).map(parts -> String.join("", parts));
  }

  /**
   * @param from first character
   * @param to last character (inclusive)
   * @param min shortest length
   * @param max longest length
   * @return strings of characters in that range
   */
  public static Gen<String> strings(char from, char to, int min, int max) {
    StringBuilder chars = new StringBuilder();
    for (int c = from; c <= to; c++) {
      chars.append((char) c);
    }
    return strings(chars.toString(), min, max);
  }

  /**
   * @param element the element generator
   * @param min smallest size
   * @param max largest size
   * @param <T> element type
   * @return lists of those elements
   */
  public static <T> Gen<List<T>> listOf(Gen<T> element, int min, int max) {
    return SourceDSL.lists().of(element).ofSizeBetween(min, max).map(ArrayList::new);
  }

  /**
   * @param first one generator
   * @param rest the others
   * @param <T> value type
   * @return a generator that draws from one of them, each as likely
   */
  @SafeVarargs
  public static <T> Gen<T> oneOf(Gen<? extends T> first, Gen<? extends T>... rest) {
    List<Gen<T>> all = new ArrayList<>();
    all.add(widen(first));
    for (Gen<? extends T> g : rest) {
      all.add(widen(g));
    }
    return Generate.range(0, all.size() - 1).flatMap(all::get);
  }

  /**
   * @param values the values
   * @param <T> value type
   * @return one of them
   */
  @SafeVarargs
  public static <T> Gen<T> of(T... values) {
    return Generate.pick(List.of(values));
  }

  /**
   * @param min smallest
   * @param max largest (inclusive)
   * @return integers in that range
   */
  public static Gen<Integer> ints(int min, int max) {
    return Generate.range(min, max);
  }

  /**
   * @param min smallest
   * @param max largest (inclusive)
   * @return longs in that range
   */
  public static Gen<Long> longs(long min, long max) {
    return Generate.longRange(min, max);
  }

  /**
   * @param element the element generator
   * @param max largest size before duplicates are removed
   * @param <T> element type
   * @return lists without duplicates, in first-drawn order
   */
  public static <T> Gen<List<T>> distinctListOf(Gen<T> element, int max) {
    return listOf(element, 0, max)
        .map(l -> l.stream().distinct().collect(Collectors.toCollection(ArrayList::new)));
  }

  @SuppressWarnings("unchecked")
  private static <T> Gen<T> widen(Gen<? extends T> g) {
    return (Gen<T>) g;
  }
}
