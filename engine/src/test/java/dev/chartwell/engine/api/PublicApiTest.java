package dev.chartwell.engine.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chartwell.engine.Engine;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Guards the engine's public API over its compiled classes: the reviewed list of public types, its
 * size, and that no public signature of an API type names an internal or a parser type (a user must
 * be able to use the engine with imports from {@code dev.chartwell.engine} alone).
 */
class PublicApiTest {
  /** The package users import. */
  static final String API_PACKAGE = "dev.chartwell.engine";

  /** A public API fits on one page. */
  static final int MAX_TYPES = 40;

  /**
   * The reviewed public top-level types. Adding one is an API decision: add it here in the same
   * change, with its Javadoc.
   */
  static final Set<String> REVIEWED =
      Set.of(
          "AggFn",
          "AppendResult",
          "ChartQuery",
          "ChartResult",
          "ChartwellException",
          "ColumnSpec",
          "ColumnType",
          "Engine",
          "EngineClosedException",
          "EngineStats",
          "Event",
          "EventBatch",
          "FsyncPolicy",
          "Granularity",
          "InvalidQueryException",
          "MetricSpec",
          "MetricType",
          "QueryAbortedException",
          "QueryControl",
          "QueryCounters",
          "QueryLimits",
          "QueryOptions",
          "RejectedEventException",
          "SearchOrder",
          "SearchQuery",
          "SearchResult",
          "Series",
          "SeriesReturnType",
          "Source",
          "SourceKind",
          "SourceSpec",
          "SourceStats",
          "StorageFailedException",
          "UnknownSourceException",
          "WhereLanguage",
          "WritesRefusedException");

  /** Packages whose types no public API signature may name. */
  static final List<String> HIDDEN =
      List.of("dev.chartwell.engine.internal.", "dev.chartwell.parser.");

  @Test
  void theReviewedListFitsOnOnePage() {
    assertTrue(REVIEWED.size() <= MAX_TYPES, REVIEWED.size() + " public types");
  }

  @Test
  void everyPublicTypeOutsideInternalPackagesIsReviewed() {
    List<String> problems = unreviewedOf(classes());
    assertEquals(List.of(), problems);
  }

  @Test
  void noApiSignatureNamesAnInternalOrParserType() {
    List<String> problems = new ArrayList<>();
    for (Class<?> c : classes()) {
      if (isApi(c)) {
        exposure(c, problems);
      }
    }
    assertEquals(List.of(), problems);
  }

  @Test
  void theCheckFindsViolations() {
    // The checks themselves, on types made to break them.
    List<String> problems = new ArrayList<>();
    exposure(Leaky.class, problems);
    assertEquals(
        Set.of(
            "Leaky.core(): dev.chartwell.engine.internal.source.SourceCore",
            "Leaky.where: dev.chartwell.parser.Expr",
            "Leaky.Leaky(): java.util.List<dev.chartwell.engine.internal.segment.Segment>",
            "Leaky.PARSER_LANGUAGE: dev.chartwell.parser.WhereLanguage"),
        new HashSet<>(problems.stream().map(p -> p.replace("PublicApiTest$", "")).toList()));
    // A public top-level type in the API package that is not on the list (a test helper here).
    assertEquals(
        List.of("dev.chartwell.engine.TestAccess is public but not reviewed"),
        unreviewedOf(List.of(dev.chartwell.engine.TestAccess.class, Engine.class)));
    // A public type in a package that is neither the API nor internal.
    assertEquals(
        List.of("dev.chartwell.engine.testing.Gens is public but not reviewed"),
        unreviewedOf(List.of(dev.chartwell.engine.testing.Gens.class)));
  }

  /** Breaks every rule: public, not reviewed, internal types in its signatures. */
  public static final class Leaky {
    public static final dev.chartwell.parser.WhereLanguage PARSER_LANGUAGE = null;
    public dev.chartwell.parser.Expr where;

    public Leaky(List<dev.chartwell.engine.internal.segment.Segment> segments) {}

    public dev.chartwell.engine.internal.source.SourceCore core() {
      return null;
    }

    void hidden(dev.chartwell.engine.internal.source.SourceCore notPublic) {}
  }

  private static boolean isApi(Class<?> c) {
    return c.getPackageName().equals(API_PACKAGE) && Modifier.isPublic(c.getModifiers());
  }

  private static List<String> unreviewedOf(List<Class<?>> classes) {
    List<String> problems = new ArrayList<>();
    for (Class<?> c : classes) {
      if (c.getEnclosingClass() != null || !Modifier.isPublic(c.getModifiers())) {
        continue;
      }
      String pkg = c.getPackageName();
      if (pkg.startsWith("dev.chartwell.engine.internal")) {
        continue;
      }
      if (!pkg.equals(API_PACKAGE) || !REVIEWED.contains(c.getSimpleName())) {
        problems.add(c.getName() + " is public but not reviewed");
      }
    }
    return problems;
  }

  /** Every public or protected member of an API type (and of its public nested types). */
  private static void exposure(Class<?> c, List<String> problems) {
    String owner = c.getName().substring(c.getPackageName().length() + 1);
    check(owner + " extends", c.getGenericSuperclass(), problems);
    for (Type i : c.getGenericInterfaces()) {
      check(owner + " implements", i, problems);
    }
    for (TypeVariable<?> v : c.getTypeParameters()) {
      for (Type b : v.getBounds()) {
        check(owner + "<" + v.getName() + ">", b, problems);
      }
    }
    if (c.isRecord()) {
      for (RecordComponent rc : c.getRecordComponents()) {
        check(owner + "." + rc.getName() + " (record component)", rc.getGenericType(), problems);
      }
    }
    for (Field f : c.getDeclaredFields()) {
      if (visible(f.getModifiers())) {
        check(owner + "." + f.getName(), f.getGenericType(), problems);
      }
    }
    for (Constructor<?> k : c.getDeclaredConstructors()) {
      if (visible(k.getModifiers())) {
        executable(owner + "." + c.getSimpleName() + "()", k, problems);
      }
    }
    for (Method m : c.getDeclaredMethods()) {
      if (visible(m.getModifiers()) && !m.isSynthetic() && !m.isBridge()) {
        executable(owner + "." + m.getName() + "()", m, problems);
        check(owner + "." + m.getName() + "()", m.getGenericReturnType(), problems);
      }
    }
    for (Class<?> nested : c.getDeclaredClasses()) {
      if (visible(nested.getModifiers())) {
        exposure(nested, problems);
      }
    }
  }

  private static boolean visible(int modifiers) {
    return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
  }

  private static void executable(String where, Executable e, List<String> problems) {
    for (Type p : e.getGenericParameterTypes()) {
      check(where, p, problems);
    }
    for (Type x : e.getGenericExceptionTypes()) {
      check(where, x, problems);
    }
    for (TypeVariable<?> v : e.getTypeParameters()) {
      for (Type b : v.getBounds()) {
        check(where, b, problems);
      }
    }
  }

  private static void check(String where, Type type, List<String> problems) {
    if (type != null && names(type, new HashSet<>())) {
      problems.add(where + ": " + type.getTypeName());
    }
  }

  /** Whether the type, its arguments, bounds or components name a hidden type. */
  private static boolean names(Type t, Set<Type> seen) {
    if (!seen.add(t)) {
      return false;
    }
    if (t instanceof Class<?> c) {
      while (c.isArray()) {
        c = c.getComponentType();
      }
      String name = c.getName();
      return HIDDEN.stream().anyMatch(name::startsWith);
    }
    if (t instanceof ParameterizedType p) {
      if (names(p.getRawType(), seen)
          || (p.getOwnerType() != null && names(p.getOwnerType(), seen))) {
        return true;
      }
      for (Type a : p.getActualTypeArguments()) {
        if (names(a, seen)) {
          return true;
        }
      }
      return false;
    }
    if (t instanceof WildcardType w) {
      return Stream.concat(Stream.of(w.getUpperBounds()), Stream.of(w.getLowerBounds()))
          .anyMatch(b -> names(b, seen));
    }
    if (t instanceof TypeVariable<?> v) {
      return Stream.of(v.getBounds()).anyMatch(b -> names(b, seen));
    }
    if (t instanceof GenericArrayType g) {
      return names(g.getGenericComponentType(), seen);
    }
    return false;
  }

  /** Every class compiled from the engine's main sources. */
  private static List<Class<?>> classes() {
    Path root;
    try {
      root = Path.of(Engine.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
    Set<String> names = new TreeSet<>();
    try (Stream<Path> files = Files.walk(root)) {
      files
          .filter(f -> f.toString().endsWith(".class"))
          .forEach(
              f -> {
                String rel = root.relativize(f).toString();
                names.add(
                    rel.substring(0, rel.length() - 6)
                        .replace(f.getFileSystem().getSeparator(), "."));
              });
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    assertTrue(names.contains(Engine.class.getName()), "read the engine's classes from " + root);
    List<Class<?>> out = new ArrayList<>();
    for (String n : names) {
      if (n.endsWith("package-info") || n.equals("module-info")) {
        continue;
      }
      try {
        out.add(Class.forName(n, false, PublicApiTest.class.getClassLoader()));
      } catch (ClassNotFoundException e) {
        throw new IllegalStateException(e);
      }
    }
    return out;
  }
}
