package dev.chartwell.engine.internal.storage;

import dev.chartwell.engine.FsyncPolicy;
import dev.chartwell.engine.SourceSpec;
import dev.chartwell.engine.internal.segment.Segment;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * The data directory of an engine: one folder per source, a quarantine folder, and a lock that
 * keeps a second engine (in this process or another) out ({@link DirectoryLock}: a refused open
 * names the holder and never loosens its lock).
 *
 * <pre>
 * &lt;root&gt;/engine.lock          locked while an engine has the directory open
 * &lt;root&gt;/sources/&lt;id&gt;/        one source's files ({@link SourceFiles})
 * &lt;root&gt;/quarantine/          files that failed verification, moved aside, never read again
 * &lt;root&gt;/dropped/             dropped sources' files, until no query reads them
 * </pre>
 */
public final class EngineFiles implements Closeable {
  private static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");
  private static final String LOCK = "engine.lock";
  private static final String DROPPED = "dropped";

  private final Path sources;
  private final DirectoryLock lock;
  private final Verifier verifier;
  private final StorageContext context;

  private EngineFiles(
      Path root, DirectoryLock lock, FsyncPolicy policy, Consumer<String> reporter) {
    this.sources = root.resolve("sources");
    this.lock = lock;
    this.verifier = new Verifier(reporter);
    this.context =
        new StorageContext(
            policy, root.resolve("quarantine"), root.resolve(DROPPED), reporter, verifier::add);
  }

  /**
   * @return the folder that holds one folder per source
   */
  public Path sourcesDirectory() {
    return sources;
  }

  /**
   * Opens (creating when missing) and locks a data directory.
   *
   * @param root the directory
   * @param policy when to fsync the write-ahead logs
   * @param reporter told about problems found and progress, one line each
   * @return the open directory
   * @throws IOException when it cannot be created or read, or another engine has it open (in this
   *     process or another: the message names the directory and the holder's process id)
   */
  public static EngineFiles open(Path root, FsyncPolicy policy, Consumer<String> reporter)
      throws IOException {
    // The lock first: nothing in the directory is read, deleted or recovered before it is ours.
    DirectoryLock lock =
        DirectoryLock.acquire(
            root, LOCK, "the data directory " + root + " is in use by another engine");
    try {
      OwnerOnly.createDirectories(root.resolve("sources"));
      Durable.deleteTree(root.resolve(DROPPED)); // sources dropped before the last stop
    } catch (IOException | RuntimeException e) {
      lock.close();
      throw e;
    }
    ReadAhead.noteOnce(root).ifPresent(reporter);
    return new EngineFiles(root, lock, policy, reporter);
  }

  /**
   * @return what the sources' storages share
   */
  public StorageContext context() {
    return context;
  }

  /**
   * @return the folders of the sources found on disk, in name order
   * @throws IOException when the directory cannot be read
   */
  public List<Path> sourceDirectories() throws IOException {
    List<Path> out = new ArrayList<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(sources)) {
      for (Path p : entries) {
        if (Files.isDirectory(p)) {
          out.add(p);
        }
      }
    }
    out.sort(null);
    return out;
  }

  /**
   * @param id a source id
   * @return why it cannot name a folder, or {@code null} when it can
   */
  public static String idProblem(String id) {
    return ID.matcher(id).matches()
        ? null
        : "a source id of a durable engine must be 1 to 128 letters, digits, '.', '_' or '-',"
            + " starting with a letter or digit";
  }

  /**
   * Creates the files of a new source.
   *
   * @param spec its definition, with its id
   * @return its storage
   * @throws IllegalArgumentException when the id cannot name a folder or the folder exists
   * @throws IOException when the files cannot be created
   */
  public SourceFiles create(SourceSpec spec) throws IOException {
    String problem = idProblem(spec.id());
    if (problem != null) {
      throw new IllegalArgumentException(problem + ": '" + spec.id() + "'");
    }
    Path dir = sources.resolve(spec.id());
    if (Files.exists(dir)) {
      throw new IllegalArgumentException("a source with id " + spec.id() + " exists on disk");
    }
    return SourceFiles.create(dir, spec, context);
  }

  /**
   * Opens a source found on disk. A folder without a manifest (an interrupted creation or drop) is
   * deleted; one whose manifests all fail to verify is moved to quarantine; both are reported.
   *
   * @param dir a folder from {@link #sourceDirectories}
   * @return what was found, or {@code null} when the folder was deleted or set aside
   * @throws IOException when the files cannot be read
   */
  public SourceFiles.Opened open(Path dir) throws IOException {
    String id = dir.getFileName().toString();
    try {
      SourceFiles.Opened opened = SourceFiles.open(dir, context);
      if (opened == null) {
        Durable.deleteTree(dir);
        context.report(
            "deleted "
                + dir
                + ": it holds no manifest (a source created or dropped when the"
                + " process stopped)");
      }
      return opened;
    } catch (SourceFiles.UnreadableException e) {
      context.quarantine(dir, id, e.getMessage() + "; the source cannot be loaded");
      return null;
    }
  }

  /**
   * @param segments segment files found at start, to verify in the background
   */
  public void verifyInBackground(List<Segment> segments) {
    verifier.addFoundAtStart(segments);
  }

  @Override
  public void close() throws IOException {
    try {
      verifier.close();
    } finally {
      lock.close(); // releases the lock and this process's registry entry
    }
  }
}
