package dev.chartwell.server.backup;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.chartwell.engine.internal.storage.OwnerOnly;
import dev.chartwell.engine.internal.storage.SourceBackup;
import dev.chartwell.server.Version;
import dev.chartwell.server.store.Collection;
import dev.chartwell.server.store.DocumentStore;
import dev.chartwell.server.store.Secrets;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * Takes a backup of a data directory into a {@link BackupTarget}: the management stores read
 * through their API, each source's files captured consistently ({@link SourceBackup}), and the
 * secrets key. The backup is written into a temporary folder and renamed into place with its
 * description, so that a backup either is complete or is not listed.
 */
public final class BackupWriter {
  /** How often the management stores are read in a row, at most, to find them unchanged. */
  private static final int STATE_ATTEMPTS = 50;

  private final BackupTarget target;
  private final ObjectMapper mapper;
  private final Clock clock;

  /** Reads one collection's documents as stored, by id. */
  @FunctionalInterface
  public interface StateReader {
    /**
     * @param collection a collection
     * @return its documents by id, as stored (empty when the data directory has none)
     * @throws IOException when it cannot be read
     */
    Map<String, String> read(Collection collection) throws IOException;
  }

  /**
   * @param target where backups go
   * @param mapper the JSON codec
   * @param clock the time backups are stamped with
   */
  public BackupWriter(BackupTarget target, ObjectMapper mapper, Clock clock) {
    this.target = target;
    this.mapper = mapper;
    this.clock = clock;
  }

  /**
   * The stores a running server has open on its data directory.
   *
   * @param dataDir the data directory
   * @return a reader of them
   */
  public static StateReader live(Path dataDir) {
    return c ->
        DocumentStore.openedBy(dataDir, c)
            .orElseThrow(() -> new IOException("the " + c.mapName() + " store is not open"))
            .entries();
  }

  /**
   * Takes a backup.
   *
   * @param dataDir the data directory (a running server's, or one locked by the caller)
   * @param keyFile the secrets key file the data directory's secrets are encrypted with
   * @param state the management stores
   * @return the backup's description (as {@code backup.json} holds it)
   * @throws IOException when reading or writing fails (nothing is listed then)
   */
  public ObjectNode write(Path dataDir, Path keyFile, StateReader state) throws IOException {
    Instant started = clock.instant();
    String id = UUID.randomUUID().toString();
    Path tmp = target.root().resolve(BackupTarget.BACKUPS).resolve("." + id + ".tmp");
    OwnerOnly.createDirectories(tmp);
    try {
      Map<Collection, Map<String, String>> docs = readState(state);
      ObjectNode description = mapper.createObjectNode();
      description.put("id", id);
      long[] segments = {0, 0}; // segment files' bytes: in the backup, copied now
      ArrayNode sources = copySources(dataDir, tmp, segments);
      writeState(tmp.resolve("state"), docs);
      for (Path f : List.of(keyFile, dataDir.resolve(Secrets.CHECK_FILE))) {
        if (Files.isRegularFile(f)) {
          String name = f.equals(keyFile) ? Secrets.KEY_FILE : f.getFileName().toString();
          try (FileChannel in = FileChannel.open(f, StandardOpenOption.READ)) {
            SourceBackup.copyPrefix(in, in.size(), tmp.resolve(name));
          }
        }
      }
      long own = folderBytes(tmp); // manifests, logs, stores and key: all written now
      Instant finished = clock.instant();
      description.put("status", "done");
      description.put("startedAt", started.toString());
      description.put("finishedAt", finished.toString());
      description.put("durationInSeconds", Duration.between(started, finished).toMillis() / 1000.0);
      description.put("sizeInBytes", own + segments[0]);
      description.put("bytesWritten", own + segments[1]);
      boolean incremental = false;
      for (JsonNode s : sources) {
        incremental |= s.path("reusedSegments").asInt() > 0;
      }
      description.put("type", incremental ? "incremental" : "full");
      description.put("chartwellVersion", Version.current().version());
      description.put("dataDirectory", dataDir.toAbsolutePath().normalize().toString());
      ArrayNode services = description.putArray("services");
      docs.get(Collection.SERVICES).keySet().stream().sorted().forEach(services::add);
      ObjectNode counts = description.putObject("documents");
      docs.forEach((c, m) -> counts.put(c.mapName(), m.size()));
      description.set("sources", sources);
      writeOwnerOnly(tmp.resolve(BackupTarget.DESCRIPTION), mapper.writeValueAsBytes(description));
      Files.move(tmp, target.backup(id), StandardCopyOption.ATOMIC_MOVE);
      return description;
    } catch (IOException | RuntimeException e) {
      deleteTree(tmp);
      throw e;
    }
  }

  /**
   * Reads every collection, again and again until two reads in a row agree: then each holds what it
   * held at one moment, the moment between them.
   */
  private Map<Collection, Map<String, String>> readState(StateReader state) throws IOException {
    Map<Collection, Map<String, String>> last = readAll(state);
    for (int i = 0; i < STATE_ATTEMPTS; i++) {
      Map<Collection, Map<String, String>> next = readAll(state);
      if (next.equals(last)) {
        return next;
      }
      last = next;
    }
    throw new IOException(
        "the management state changed during each of " + STATE_ATTEMPTS + " reads; try again");
  }

  private static Map<Collection, Map<String, String>> readAll(StateReader state)
      throws IOException {
    Map<Collection, Map<String, String>> all = new EnumMap<>(Collection.class);
    for (Collection c : Collection.values()) {
      all.put(c, new TreeMap<>(state.read(c)));
    }
    return all;
  }

  /** Writes each collection into a fresh store, documents as they were stored. */
  private static void writeState(Path dir, Map<Collection, Map<String, String>> docs)
      throws IOException {
    OwnerOnly.createDirectories(dir);
    for (Map.Entry<Collection, Map<String, String>> e : docs.entrySet()) {
      try (DocumentStore store = DocumentStore.open(dir, e.getKey())) {
        e.getValue().forEach(store::put);
      }
    }
  }

  private ArrayNode copySources(Path dataDir, Path backupDir, long[] segmentBytes)
      throws IOException {
    ArrayNode out = mapper.createArrayNode();
    Path sourcesDir = dataDir.resolve("engine").resolve("sources");
    if (!Files.isDirectory(sourcesDir)) {
      return out;
    }
    List<Path> dirs = new ArrayList<>();
    try (DirectoryStream<Path> s = Files.newDirectoryStream(sourcesDir, Files::isDirectory)) {
      s.forEach(dirs::add);
    }
    dirs.sort(null);
    for (Path dir : dirs) {
      Optional<SourceBackup> captured = SourceBackup.capture(dir);
      if (captured.isEmpty()) {
        continue; // being created or dropped
      }
      try (SourceBackup b = captured.get()) {
        BackupTarget.Sink sink = target.new Sink();
        Path copy =
            backupDir.resolve("engine").resolve("sources").resolve(dir.getFileName().toString());
        SourceBackup.Copied c = b.writeTo(copy, sink);
        ObjectNode s = out.addObject();
        s.put("id", c.sourceId());
        s.put("generation", c.generation());
        s.put("manifestPosition", c.manifestPosition());
        s.put("logPosition", c.logPosition());
        s.put("events", c.events());
        s.put("segmentEvents", c.segmentEvents());
        s.put("logEvents", c.logEvents());
        s.put("reusedSegments", sink.reused());
        ArrayNode segs = s.putArray("segments");
        for (SourceBackup.Segment seg : c.segments()) {
          segs.addObject()
              .put("file", seg.file())
              .put("fingerprint", seg.fingerprint())
              .put("length", seg.length());
          segmentBytes[0] += seg.length();
        }
        segmentBytes[1] += sink.written();
      }
    }
    return out;
  }

  private static long folderBytes(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      long sum = 0;
      for (Path p : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
        sum += Files.size(p);
      }
      return sum;
    }
  }

  static void writeOwnerOnly(Path file, byte[] content) throws IOException {
    try (FileChannel ch =
        OwnerOnly.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      ByteBuffer b = ByteBuffer.wrap(content);
      while (b.hasRemaining()) {
        ch.write(b);
      }
      ch.force(true);
    }
  }

  static void deleteTree(Path root) {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(root)) {
      for (Path p : (Iterable<Path>) walk.sorted(java.util.Comparator.reverseOrder())::iterator) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      // what is left is not listed: a folder without its description is not a backup
    }
  }
}
