package dev.chartwell.engine.internal.storage;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * Opening a log directory: verifies every file in sequence order, cuts a torn tail of the newest
 * file at the last whole record, and reports any other bad bytes as {@link
 * StorageCorruptedException}.
 *
 * <p>A bad record is a torn tail only when it is in the newest file and no valid record follows it
 * anywhere in the rest of that file (every byte offset is tried). A killed process leaves exactly
 * that: the start of a write that never finished, never acknowledged. A bad record followed by a
 * valid one, a bad record in an older file, a bad header, or a gap between files is corruption.
 */
final class LogRecovery {
  /**
   * @param files every file, oldest first; only the newest has an open channel
   * @param lastSeq the sequence number of the last whole record (first file's first - 1 if none)
   * @param report what was found and cut
   */
  record Result(List<LogFile> files, long lastSeq, Recovery report) {}

  private LogRecovery() {}

  /**
   * @param dir the log directory (exists)
   * @param io opens files
   * @param sync whether to force what recovery changed (and what it found) to the disk
   * @param startAfter positions up to here are kept elsewhere: a log without files starts after it,
   *     and a log whose records all precede it is replaced by an empty one starting after it
   * @return the verified files
   * @throws IOException when reading fails
   * @throws StorageCorruptedException when bytes are bad and no torn write explains them
   */
  static Result recover(Path dir, ChannelFactory io, boolean sync, long startAfter)
      throws IOException {
    Result r = recover(dir, io, sync);
    if (r.lastSeq() >= startAfter) {
      return r;
    }
    for (LogFile f : r.files()) {
      f.close();
      Files.deleteIfExists(f.path);
    }
    List<LogFile> files = new ArrayList<>();
    files.add(LogFile.create(io, dir, startAfter + 1, sync));
    return new Result(files, startAfter, r.report());
  }

  private static Result recover(Path dir, ChannelFactory io, boolean sync) throws IOException {
    TreeMap<Long, Path> found = new TreeMap<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
      for (Path p : entries) {
        long seq = LogFile.parseName(p.getFileName().toString());
        if (seq >= 0) {
          found.put(seq, p);
        }
      }
    }
    List<LogFile> files = new ArrayList<>();
    if (found.isEmpty()) {
      files.add(LogFile.create(io, dir, 1, sync));
      return new Result(files, 0, new Recovery(0, 0, 0, ""));
    }
    long expected = found.firstKey();
    long records = 0;
    long bytesCut = 0;
    String cut = "";
    Path previous = null;
    for (var e : found.entrySet()) {
      long nameSeq = e.getKey();
      Path path = e.getValue();
      boolean newest = nameSeq == found.lastKey();
      if (nameSeq != expected) {
        throw new StorageCorruptedException(
            path,
            0,
            "the file starts at sequence number "
                + nameSeq
                + " but "
                + previous.getFileName()
                + " ends at "
                + (expected - 1)
                + " (a log file is missing or out of place)");
      }
      LogChannel ch = newest ? io.open(path) : io.openForReading(path);
      try {
        long size = ch.size();
        if (size < LogFile.HEADER_BYTES) {
          if (!newest) {
            throw new StorageCorruptedException(
                path,
                size,
                "the file is shorter than its " + LogFile.HEADER_BYTES + "-byte header");
          }
          // Created by a roll that a crash interrupted: its name is the truth; write the header.
          ch.truncate(0);
          writeFully(ch, LogFile.header(nameSeq));
          bytesCut = size;
          cut = path.getFileName() + ": rewrote an incomplete " + size + "-byte header";
          size = LogFile.HEADER_BYTES;
        } else {
          ByteBuffer header = ByteBuffer.allocate(LogFile.HEADER_BYTES);
          while (header.hasRemaining() && ch.read(header, header.position()) >= 0) {
            // read the whole header
          }
          LogFile.verifyHeader(path, header, nameSeq);
        }
        RecordReader reader = new RecordReader(ch, LogFile.HEADER_BYTES, size);
        RecordReader.Status status;
        while ((status = reader.next(expected)) == RecordReader.Status.RECORD) {
          expected++;
          records++;
        }
        if (status != RecordReader.Status.END) {
          long bad = reader.offset();
          String problem = problem(status, reader, expected);
          if (status == RecordReader.Status.BAD_SEQUENCE) {
            throw new StorageCorruptedException(path, bad, problem);
          }
          if (!newest) {
            throw new StorageCorruptedException(
                path, bad, problem + "; the file is not the newest, so this is no torn tail");
          }
          long valid = reader.findValidRecord(bad + 1, expected);
          if (valid >= 0) {
            throw new StorageCorruptedException(
                path,
                bad,
                problem
                    + "; a valid record follows at offset "
                    + valid
                    + ", so this is no torn tail");
          }
          ch.truncate(bad);
          bytesCut = size - bad;
          cut =
              path.getFileName()
                  + ": cut "
                  + bytesCut
                  + " bytes of a torn tail at offset "
                  + bad
                  + " ("
                  + problem
                  + ")";
          size = bad;
        }
        if (newest) {
          if (sync) {
            ch.force();
          }
          files.add(LogFile.existing(path, nameSeq, ch, size));
        } else {
          if (sync) {
            ch.force(); // a process with fsync never may have left it in the page cache
          }
          ch.close();
          files.add(LogFile.existing(path, nameSeq, null, size));
        }
      } catch (IOException | RuntimeException ex) {
        closeAfter(ch, ex);
        for (LogFile f : files) {
          f.closeQuietly(ex);
        }
        throw ex;
      }
      previous = path;
    }
    return new Result(files, expected - 1, new Recovery(found.size(), records, bytesCut, cut));
  }

  /**
   * @param status what {@link RecordReader#next} found
   * @param reader the reader that found it
   * @param expected the sequence number the record should have had
   * @return the problem in words
   */
  static String problem(RecordReader.Status status, RecordReader reader, long expected) {
    return switch (status) {
      case INCOMPLETE -> "the record is incomplete (the file ends inside it)";
      case BAD_LENGTH -> "the record's length field is out of range";
      case BAD_CHECKSUM -> "the record's checksum does not match its bytes";
      case BAD_SEQUENCE ->
          "the record has sequence number " + reader.seq() + " where " + expected + " was expected";
      case RECORD, END -> throw new IllegalStateException(status.name());
    };
  }

  private static void writeFully(LogChannel ch, ByteBuffer b) throws IOException {
    long at = 0;
    while (b.hasRemaining()) {
      at += ch.write(b, at);
    }
  }

  private static void closeAfter(LogChannel ch, Throwable primary) {
    try {
      ch.close();
    } catch (IOException e) {
      primary.addSuppressed(e);
    }
  }
}
