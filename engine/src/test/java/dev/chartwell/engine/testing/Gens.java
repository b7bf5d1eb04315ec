package dev.chartwell.engine.testing;

import static org.quicktheories.QuickTheory.qt;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.quicktheories.api.AsString;
import org.quicktheories.core.Gen;
import org.quicktheories.core.Reporter;
import org.quicktheories.generators.Generate;

/**
 * Generators and the QuickTheories set-up shared by this module's property tests.
 *
 * <p>{@link #check} runs a property for a fixed number of examples from a random seed (or the one
 * in the system property {@code QT_SEED}); a failure is shrunk and reported with its seed and the
 * Maven command that replays it. Every generator here shrinks towards its first choice: the first
 * generator of {@link #oneOf}, the first value of {@link #of}, the shortest length.
 */
public final class Gens {
  /** Runs tests of this module (building the parser first, without running its tests). */
  private static final String MAVEN_TEST =
      "mvn -B -pl engine -am test -Dsurefire.failIfNoSpecifiedTests=false";

  private Gens() {}

  /**
   * Simpler values to try in place of a failing one, the biggest steps first.
   *
   * @param <T> the type of values
   */
  @FunctionalInterface
  public interface Shrink<T> {
    /**
     * Candidates simpler than {@code value}.
     *
     * @param value a value that falsifies the property
     * @return simpler values, none when there are none
     */
    List<T> candidates(T value);
  }

  /**
   * Checks {@code property} on {@code examples} values of {@code gen}; see {@link #check(int, int,
   * Gen, Shrink, Consumer)}, with ten random shrink cycles per example.
   */
  public static <T> void check(int examples, Gen<T> gen, Shrink<T> shrink, Consumer<T> property) {
    check(examples, examples * 10, gen, shrink, property, caller());
  }

  /**
   * Checks {@code property} (which throws, usually an assertion error, when it does not hold) on
   * {@code examples} values of {@code gen}, drawn from a random seed or from the system property
   * {@code QT_SEED}. A failing value is first shrunk by QuickTheories for {@code
   * randomShrinkCycles} (each moves one random draw behind the value towards its simplest), then by
   * {@code shrink}: the first of its candidates that still fails with the same exception class
   * replaces the value, until none does. The failure reports that value, its exception, the seed
   * and the Maven command that replays it.
   */
  public static <T> void check(
      int examples, int randomShrinkCycles, Gen<T> gen, Shrink<T> shrink, Consumer<T> property) {
    check(examples, randomShrinkCycles, gen, shrink, property, caller());
  }

  private static <T> void check(
      int examples,
      int randomShrinkCycles,
      Gen<T> gen,
      Shrink<T> shrink,
      Consumer<T> property,
      String test) {
    // Set by hand, QT_EXAMPLES (a longer run) and QT_SHRINKS override the property's own counts.
    int n = Integer.getInteger("QT_EXAMPLES", examples);
    qt().withExamples(n)
        .withShrinkCycles(Integer.getInteger("QT_SHRINKS", randomShrinkCycles))
        // Filters ("assuming") redraw; the default of 10 redraws per example is too few for
        // generators that filter inside lists.
        .withGenerateAttempts(10_000)
        .withReporter(new ReplayReporter<>(test, n != examples ? n : -1, shrink, property))
        .forAll(gen)
        .checkAssert(property);
  }

  /** The test method that called {@code check}, as {@code Class#method}. */
  private static String caller() {
    return StackWalker.getInstance()
        .walk(s -> s.skip(2).findFirst())
        .map(f -> simpleName(f.getClassName()) + "#" + f.getMethodName())
        .orElse("<TestClass>");
  }

  private static String simpleName(String className) {
    return className.substring(className.lastIndexOf('.') + 1);
  }

  /** Tries nothing simpler. */
  public static <T> Shrink<T> noShrink() {
    return value -> List.of();
  }

  /**
   * Lists with a half, a quarter, ... and finally one element removed, then lists with one element
   * replaced by one of its candidates.
   */
  public static <E> Shrink<List<E>> shrinkList(Shrink<E> elements) {
    return list -> {
      List<List<E>> out = new ArrayList<>();
      for (int chunk = list.size() / 2; list.size() > 0; chunk /= 2) {
        chunk = Math.max(chunk, 1);
        for (int from = 0; from < list.size(); from += chunk) {
          List<E> rest = new ArrayList<>(list.subList(0, from));
          rest.addAll(list.subList(Math.min(list.size(), from + chunk), list.size()));
          out.add(rest);
        }
        if (chunk == 1) {
          break;
        }
      }
      for (int i = 0; i < list.size(); i++) {
        for (E e : elements.candidates(list.get(i))) {
          List<E> copy = new ArrayList<>(list);
          copy.set(i, e);
          out.add(copy);
        }
      }
      return out;
    };
  }

  /** Strings with code points removed, as {@link #shrinkList} removes elements. */
  public static Shrink<String> shrinkString() {
    Shrink<List<Integer>> codePoints = shrinkList(noShrink());
    return s ->
        codePoints.candidates(s.codePoints().boxed().toList()).stream()
            .map(cps -> new String(cps.stream().mapToInt(c -> c).toArray(), 0, cps.size()))
            .toList();
  }

  /** The value that fails, after trying the candidates of {@code shrink} greedily. */
  private static <T> T shrinkFurther(
      T value, Class<?> failure, Shrink<T> shrink, Consumer<T> property) {
    int budget = 5_000;
    boolean progress = true;
    while (progress && budget > 0) {
      progress = false;
      List<T> candidates = shrink.candidates(value);
      for (int i = 0; i < candidates.size() && budget-- > 0; i++) {
        Throwable t = failure(property, candidates.get(i));
        if (t != null && t.getClass() == failure) {
          value = candidates.get(i);
          progress = true;
          // Go on from the new value at about the same kind of step.
          candidates = shrink.candidates(value);
          i = Math.min(i, candidates.size()) - 1;
        }
      }
    }
    return value;
  }

  private static <T> Throwable failure(Consumer<T> property, T value) {
    try {
      property.accept(value);
      return null;
    } catch (Throwable t) {
      return t;
    }
  }

  /** One of {@code values}, uniformly. */
  @SafeVarargs
  public static <T> Gen<T> of(T... values) {
    List<T> list = new ArrayList<>();
    for (T v : values) {
      list.add(v);
    }
    return of(list);
  }

  /** One of {@code values}, uniformly. */
  public static <T> Gen<T> of(List<T> values) {
    List<T> copy = new ArrayList<>(values);
    Gen<Integer> index = Generate.range(0, copy.size() - 1);
    return in -> copy.get(index.generate(in));
  }

  /** A value of one of {@code gens}, each picked as often. */
  @SafeVarargs
  public static <T> Gen<T> oneOf(Gen<? extends T>... gens) {
    List<Gen<? extends T>> copy = new ArrayList<>();
    for (Gen<? extends T> g : gens) {
      copy.add(g);
    }
    Gen<Integer> index = Generate.range(0, copy.size() - 1);
    return in -> copy.get(index.generate(in)).generate(in);
  }

  /** Strings of {@code minLength} to {@code maxLength} characters, each one of {@code chars}. */
  public static Gen<String> strings(String chars, int minLength, int maxLength) {
    Gen<Integer> length = Generate.range(minLength, maxLength);
    Gen<Integer> index = Generate.range(0, chars.length() - 1);
    return in -> {
      int n = length.generate(in);
      StringBuilder sb = new StringBuilder(n);
      for (int i = 0; i < n; i++) {
        sb.append(chars.charAt(index.generate(in)));
      }
      return sb.toString();
    };
  }

  /** The characters {@code from} to {@code to}, inclusive, for {@link #strings}. */
  public static String chars(char from, char to) {
    StringBuilder sb = new StringBuilder();
    for (int c = from; c <= to; c++) {
      sb.append((char) c);
    }
    return sb.toString();
  }

  /** Lists (always {@link ArrayList}) of {@code minSize} to {@code maxSize} elements. */
  public static <T> Gen<List<T>> lists(Gen<T> elements, int minSize, int maxSize) {
    Gen<Integer> size = Generate.range(minSize, maxSize);
    return in -> {
      int n = size.generate(in);
      List<T> out = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        out.add(elements.generate(in));
      }
      return out;
    };
  }

  /**
   * Trees of a depth picked uniformly in {@code minDepth..maxDepth}: {@code compose} applied that
   * many times to {@code leaf}.
   */
  public static <T> Gen<T> recursive(
      Gen<T> leaf, UnaryOperator<Gen<T>> compose, int minDepth, int maxDepth) {
    List<Gen<T>> byDepth = new ArrayList<>();
    Gen<T> g = leaf;
    for (int depth = 0; depth <= maxDepth; depth++) {
      if (depth >= minDepth) {
        byDepth.add(g);
      }
      g = compose.apply(g);
    }
    Gen<Integer> depth = Generate.range(0, byDepth.size() - 1);
    return in -> byDepth.get(depth.generate(in)).generate(in);
  }

  /** {@code first} or {@code second}, picked in proportion to their weights. */
  public static <T> Gen<T> weighted(
      int firstWeight, Gen<? extends T> first, int secondWeight, Gen<? extends T> second) {
    return weighted(new int[] {firstWeight, secondWeight}, List.of(first, second));
  }

  /** {@code first}, {@code second} or {@code third}, picked in proportion to their weights. */
  public static <T> Gen<T> weighted(
      int firstWeight,
      Gen<? extends T> first,
      int secondWeight,
      Gen<? extends T> second,
      int thirdWeight,
      Gen<? extends T> third) {
    return weighted(
        new int[] {firstWeight, secondWeight, thirdWeight}, List.of(first, second, third));
  }

  private static <T> Gen<T> weighted(int[] weights, List<Gen<? extends T>> gens) {
    Gen<Integer> pick = Generate.range(0, Arrays.stream(weights).sum() - 1);
    return in -> {
      int p = pick.generate(in);
      int i = 0;
      while (p >= weights[i]) {
        p -= weights[i++];
      }
      return gens.get(i).generate(in);
    };
  }

  /**
   * Sets of {@code 0} to {@code maxSize} distinct elements: a size is picked, then elements are
   * drawn until that many are distinct (or 10 draws per element did not get there).
   */
  public static <T> Gen<Set<T>> sets(Gen<T> elements, int maxSize) {
    Gen<Integer> size = Generate.range(0, maxSize);
    return in -> {
      int n = size.generate(in);
      Set<T> out = new LinkedHashSet<>();
      for (int draws = 0; out.size() < n && draws < 10 * n; draws++) {
        out.add(elements.generate(in));
      }
      return out;
    };
  }

  /**
   * Any long: as often small as large (a uniform bit width, then a value of that width), uniform
   * over the whole range, or an edge value.
   */
  public static Gen<Long> anyLong() {
    Gen<Integer> width = Generate.range(0, 62);
    Gen<Long> byWidth =
        in -> {
          long bound = 1L << width.generate(in);
          return Generate.longRange(-bound, bound - 1).generate(in);
        };
    return oneOf(
        byWidth,
        Generate.longRange(Long.MIN_VALUE, Long.MAX_VALUE),
        of(0L, 1L, -1L, Long.MIN_VALUE, Long.MAX_VALUE));
  }

  /**
   * Shrinks a failure further and reports it as QuickTheories does (the value, the cause, the seed)
   * with the command that replays it.
   */
  private static final class ReplayReporter<T> implements Reporter {
    private final String test;
    private final int examplesSet;
    private final Shrink<T> shrink;
    private final Consumer<T> property;

    ReplayReporter(String test, int examplesSet, Shrink<T> shrink, Consumer<T> property) {
      this.test = test;
      this.examplesSet = examplesSet;
      this.shrink = shrink;
      this.property = property;
    }

    @Override
    @SuppressWarnings("unchecked")
    public void falisification(
        long seed,
        int count,
        Object smallest,
        Throwable cause,
        List<Object> found,
        AsString<Object> toString) {
      T small = shrinkFurther((T) smallest, cause.getClass(), shrink, property);
      Throwable smallCause = small == smallest ? cause : failure(property, small);
      String nl = System.lineSeparator();
      throw new AssertionError(
          "Property falsified after "
              + count
              + " example(s); falsifying value, shrunk"
              + (found.isEmpty() ? "" : " from the smallest of " + (found.size() + 1) + " found")
              + ":"
              + nl
              + toString.asString(small)
              + nl
              + "Cause: "
              + smallCause
              + nl
              + "Seed was "
              + seed
              + "; replay with"
              + nl
              + "  "
              + MAVEN_TEST
              + " -Dtest='"
              + test
              + "'"
              + (examplesSet > 0 ? " -DQT_EXAMPLES=" + examplesSet : "")
              + " -DQT_SEED="
              + seed,
          smallCause);
    }

    @Override
    public void falisification(
        long seed, int count, Object smallest, List<Object> found, AsString<Object> toString) {
      // Only check(), not checkAssert(), reports a falsification without a cause.
      throw new IllegalStateException("a property returned false");
    }

    @Override
    public void valuesExhausted(int completedExamples) {
      throw new IllegalStateException(
          "Gave up after finding only "
              + completedExamples
              + " example(s) matching the assumptions");
    }
  }
}
