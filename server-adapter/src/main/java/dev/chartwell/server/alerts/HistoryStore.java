package dev.chartwell.server.alerts;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The evaluation history of every alert: under {@code <dir>/<alertId>/}, one {@link RecordFile} per
 * UTC day ({@code 2026-11-24.log}), holding JSON records of two types:
 *
 * <ul>
 *   <li>{@code window}: one evaluated window ({@code start}, {@code end}, {@code at}) and every
 *       instance it evaluated ({@code group}, {@code value}, {@code state}, {@code consecutive},
 *       {@code notifiedAt}, {@code missing}, {@code notifications}); filed by the day its window
 *       ends, and written as one record, so an alert's state after its last window is that record;
 *   <li>{@code outcome}: what became of one notification ({@code id}, {@code status}, {@code
 *       attempts}, {@code statusCode}, {@code error}, {@code at}), always filed after the window
 *       that called for it, so that reading backwards meets it first.
 * </ul>
 *
 * Days older than {@link #RETENTION_DAYS} are deleted whole, and so is the history of an alert that
 * no longer exists. Writes are not forced to the disk: they survive the process being killed; after
 * a power loss the last windows may be missing, and are then evaluated again.
 */
final class HistoryStore implements AutoCloseable {
  /** Days of history kept. */
  static final int RETENTION_DAYS = 30;

  /** Day files kept open for appending. */
  private static final int OPEN_FILES = 64;

  private final Path dir;
  private final ObjectMapper mapper;
  private final Consumer<String> report;
  private final Map<Path, RecordFile> open = new LinkedHashMap<>(16, 0.75f, true);

  HistoryStore(Path dir, ObjectMapper mapper, Consumer<String> report) {
    this.dir = dir;
    this.mapper = mapper;
    this.report = report;
  }

  /**
   * Appends window records of one alert, each to the file of the day its window ends.
   *
   * @param alertId the alert
   * @param windows the records, oldest first
   */
  synchronized void appendWindows(String alertId, List<ObjectNode> windows) {
    Map<Path, List<byte[]>> byFile = new LinkedHashMap<>();
    for (ObjectNode w : windows) {
      byFile
          .computeIfAbsent(file(alertId, w.get("end").asLong()), f -> new ArrayList<>())
          .add(bytes(w));
    }
    byFile.forEach((f, records) -> append(f, records));
  }

  /**
   * Appends the outcome of a notification to the alert's newest day (or today's, if later).
   *
   * @param alertId the alert
   * @param outcome the record
   * @param now the time, epoch ms
   */
  synchronized void appendOutcome(String alertId, ObjectNode outcome, long now) {
    Path today = file(alertId, now);
    List<Path> days = days(alertId);
    Path target =
        days.isEmpty() || today.getFileName().compareTo(days.get(0).getFileName()) >= 0
            ? today
            : days.get(0);
    append(target, List.of(bytes(outcome)));
  }

  /**
   * @param alertId an alert
   * @return its last window record, if it has one
   */
  Optional<ObjectNode> lastWindow(String alertId) {
    ObjectNode[] found = new ObjectNode[1];
    backwards(
        alertId,
        r -> {
          if (r.path("type").asText().equals("window")) {
            found[0] = r;
            return false;
          }
          return true;
        });
    return Optional.ofNullable(found[0]);
  }

  /**
   * Reads an alert's records, newest first, day after day.
   *
   * @param alertId the alert
   * @param each receives each record and answers whether to go on
   */
  void backwards(String alertId, Predicate<ObjectNode> each) {
    boolean[] stop = new boolean[1];
    for (Path day : days(alertId)) {
      long end = committed(day);
      try (FileChannel ch = FileChannel.open(day, StandardOpenOption.READ)) {
        RecordFile.backwards(
            ch,
            end,
            p -> {
              stop[0] = !each.test(read(p));
              return !stop[0];
            });
      } catch (NoSuchFileException gone) {
        continue; // deleted by retention meanwhile
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      if (stop[0]) {
        return;
      }
    }
  }

  /**
   * Deletes days older than the retention, and the history of alerts that no longer exist.
   *
   * @param now the time, epoch ms
   * @param alive the ids of the alerts that exist
   */
  synchronized void prune(long now, Set<String> alive) {
    String oldest = day(now - RETENTION_DAYS * 86_400_000L) + ".log";
    if (!Files.isDirectory(dir)) {
      return;
    }
    try (DirectoryStream<Path> alerts = Files.newDirectoryStream(dir)) {
      for (Path a : alerts) {
        boolean gone = !alive.contains(a.getFileName().toString());
        for (Path day : days(a.getFileName().toString())) {
          if (gone || day.getFileName().toString().compareTo(oldest) < 0) {
            closeFile(day);
            Files.deleteIfExists(day);
          }
        }
        if (gone) {
          try (DirectoryStream<Path> rest = Files.newDirectoryStream(a)) {
            for (Path p : rest) {
              Files.deleteIfExists(p); // damaged copies
            }
          }
          Files.deleteIfExists(a);
        }
      }
    } catch (IOException e) {
      report.accept("could not delete old alert history under " + dir + ": " + e.getMessage());
    }
  }

  private void append(Path file, List<byte[]> records) {
    try {
      RecordFile f = open.get(file);
      if (f == null) {
        f = RecordFile.open(file, false, report);
        open.put(file, f);
        if (open.size() > OPEN_FILES) {
          var eldest = open.entrySet().iterator().next();
          eldest.getValue().close();
          open.remove(eldest.getKey());
        }
      }
      f.append(records, false);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write alert history " + file, e);
    }
  }

  /** The bytes of whole records in a day file: what is open for appending knows it exactly. */
  private synchronized long committed(Path day) {
    RecordFile f = open.get(day);
    if (f != null) {
      return f.size();
    }
    try {
      return Files.size(day);
    } catch (IOException e) {
      return 0;
    }
  }

  private void closeFile(Path day) throws IOException {
    RecordFile f = open.remove(day);
    if (f != null) {
      f.close();
    }
  }

  /** The day files of an alert, newest first. */
  private List<Path> days(String alertId) {
    Path a = dir.resolve(alertId);
    List<Path> out = new ArrayList<>();
    if (!Files.isDirectory(a)) {
      return out;
    }
    try (DirectoryStream<Path> files = Files.newDirectoryStream(a, "*.log")) {
      files.forEach(out::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    out.sort((x, y) -> y.getFileName().compareTo(x.getFileName()));
    return out;
  }

  private Path file(String alertId, long millis) {
    return dir.resolve(alertId).resolve(day(millis) + ".log");
  }

  private static String day(long millis) {
    return LocalDate.ofInstant(Instant.ofEpochMilli(millis), ZoneOffset.UTC).toString();
  }

  private byte[] bytes(ObjectNode n) {
    try {
      return mapper.writeValueAsBytes(n);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private ObjectNode read(byte[] p) {
    try {
      return (ObjectNode) mapper.readTree(p);
    } catch (IOException e) {
      throw new UncheckedIOException("unreadable alert history record", e);
    }
  }

  @Override
  public synchronized void close() {
    for (RecordFile f : open.values()) {
      try {
        f.close();
      } catch (IOException e) {
        report.accept("could not close " + f.path() + ": " + e.getMessage());
      }
    }
    open.clear();
  }
}
