package dev.chartwell.engine;

import dev.chartwell.engine.internal.source.SourceCore;
import dev.chartwell.engine.internal.source.SourceStorage;
import dev.chartwell.engine.internal.storage.EngineFiles;
import dev.chartwell.engine.internal.storage.SourceFiles;
import java.io.IOException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.Consumer;

/**
 * The engine's sources by id, and how each comes to be: made in memory, made with new files in the
 * data directory, or restored from the files found there at start.
 *
 * <p>Kept apart from {@link Engine} because it is the engine's one table of sources, which the API,
 * the queries and the limits all read, and making a source has rules of its own (a fresh id, one
 * source per id, files created before the source is listed). How a source is set up (its limits,
 * threads and hooks) is the engine's, passed in.
 */
final class SourceRegistry {
  private final Map<String, Source> sources = new ConcurrentHashMap<>();
  private final Object creation = new Object();
  private final SecureRandom random = new SecureRandom();
  private final Engine engine;
  private final EngineFiles files;
  private final BiFunction<SourceSpec, SourceStorage, SourceCore.Setup> setup;
  private final BiConsumer<SourceCore, SourceFiles> watch;

  /**
   * @param engine the engine the sources belong to
   * @param files the data directory ({@code null}: sources live in memory)
   * @param setup how a source with a definition and a storage is set up
   * @param watch told about every source with files, and its files
   */
  SourceRegistry(
      Engine engine,
      EngineFiles files,
      BiFunction<SourceSpec, SourceStorage, SourceCore.Setup> setup,
      BiConsumer<SourceCore, SourceFiles> watch) {
    this.engine = engine;
    this.files = files;
    this.setup = setup;
    this.watch = watch;
  }

  /**
   * @return the sources by id, read live (unmodifiable)
   */
  Map<String, Source> byId() {
    return Collections.unmodifiableMap(sources);
  }

  /** {@link Engine#createSource}, once the engine is known to be open. */
  Source create(SourceSpec spec) {
    String id = spec.id() != null ? spec.id() : newId();
    SourceSpec withId =
        new SourceSpec(
            id,
            spec.name(),
            spec.kind(),
            spec.timestampColumn(),
            spec.bodyColumn(),
            spec.implicitColumn(),
            spec.columns());
    synchronized (creation) {
      if (sources.containsKey(id)) {
        throw new IllegalArgumentException("a source with id " + id + " exists");
      }
      if (files == null) {
        Source source =
            new Source(SourceCore.create(setup.apply(withId, SourceStorage.inMemory())), engine);
        sources.put(id, source);
        return source;
      }
      SourceFiles storage;
      try {
        storage = files.create(withId);
      } catch (IOException e) {
        throw StorageFailedException.cannot(
            files.sourcesDirectory(), "create the files of source " + id + " in", e);
      }
      SourceCore core = SourceCore.create(setup.apply(withId, storage));
      watch.accept(core, storage);
      Source source = new Source(core, engine);
      sources.put(id, source);
      return source;
    }
  }

  /**
   * Opens every source the data directory holds (see {@link SourceLoader}) and lists them.
   *
   * @param reporter told about the progress and every source set aside
   * @throws IOException when the data directory cannot be listed
   */
  void loadAll(Consumer<String> reporter) throws IOException {
    new SourceLoader(files, reporter)
        .loadAll(this::restore, s -> sources.put(s.id(), new Source(s, engine)));
  }

  /** Creates a source from what was found on disk (at start). */
  private SourceCore restore(SourceFiles.Opened opened) {
    SourceFiles storage = opened.files();
    SourceCore source =
        SourceCore.restore(setup.apply(opened.manifest().spec(), storage), opened.restored());
    watch.accept(source, storage);
    return source;
  }

  /**
   * @param id a source id
   * @return the source, if defined
   */
  Optional<Source> get(String id) {
    return Optional.ofNullable(sources.get(id));
  }

  /**
   * @param id a source id
   * @return its core, if defined
   */
  Optional<SourceCore> core(String id) {
    Source s = sources.get(id);
    return s == null ? Optional.empty() : Optional.of(s.core());
  }

  /**
   * @return every source, in no particular order
   */
  List<Source> all() {
    return List.copyOf(sources.values());
  }

  /**
   * @return each source's memory and size
   */
  List<SourceStats> stats() {
    List<SourceStats> all = new ArrayList<>();
    for (SourceCore s : cores()) {
      all.add(s.stats());
    }
    return all;
  }

  /**
   * @return bytes of the sources' listed segment files and write-ahead logs
   */
  long diskBytes() {
    long total = 0;
    for (SourceCore s : cores()) {
      total += s.diskBytes();
    }
    return total;
  }

  /**
   * @return a fresh list of every source's core
   */
  List<SourceCore> cores() {
    List<SourceCore> all = new ArrayList<>(sources.size());
    for (Source s : sources.values()) {
      all.add(s.core());
    }
    return all;
  }

  /**
   * Unlists a source and drops all its events.
   *
   * @param id a source id
   * @return whether it existed
   */
  boolean drop(String id) {
    Source s = sources.remove(id);
    if (s == null) {
      return false;
    }
    s.core().shutdown(true);
    return true;
  }

  /** Stops every source, keeping what it stored, and unlists them all (the engine closes). */
  void shutdownAll() {
    for (Source s : sources.values()) {
      s.core().shutdown(false);
    }
    sources.clear();
  }

  private String newId() {
    byte[] b = new byte[12];
    random.nextBytes(b);
    return HexFormat.of().formatHex(b);
  }
}
