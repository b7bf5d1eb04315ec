package dev.chartwell.bench.http;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Sends an NDJSON file to a server's ingestion endpoint: the file is cut into requests of whole
 * lines, about {@code bytesPerRequest} each, which {@code connections} threads send at the same
 * time, each on its own connection, straight from the page cache ({@link PlainHttp}). Every answer
 * must accept all of its lines; the first failure stops the load and is reported.
 */
final class Loader {
  /**
   * Requests of about this many MiB unless told otherwise: what a collector's batch of these events
   * takes. Requests in flight at once interleave their events in the same heads, so each segment
   * spans the time of all of them: with 32 MiB (about 17 minutes of {@code bench-logs} each), the
   * segments overlapped by 18 minutes instead of the 5 of late events alone.
   */
  static final int DEFAULT_REQUEST_MB = 4;

  /**
   * What a load did.
   *
   * @param events events acknowledged
   * @param bytes their bytes in the file
   * @param seconds from the first request to the last answer
   */
  record Result(long events, long bytes, double seconds) {
    double eventsPerSecond() {
      return events / seconds;
    }
  }

  /** A request's part of the file: whole lines. */
  record Range(long from, long length) {}

  private final int connections;
  private final long bytesPerRequest;

  /**
   * @param connections requests in flight at once
   * @param bytesPerRequest about how many bytes each request takes (whole lines)
   */
  Loader(int connections, long bytesPerRequest) {
    if (connections < 1 || bytesPerRequest < 1) {
      throw new IllegalArgumentException("connections and bytes per request must be at least 1");
    }
    this.connections = connections;
    this.bytesPerRequest = bytesPerRequest;
  }

  /**
   * @param url the ingestion endpoint ({@code .../api/v2/sources/{id}/events})
   * @param token the service token
   * @param file the NDJSON file
   * @param out where progress goes
   * @param quiet no progress while loading
   * @return what was loaded
   * @throws IllegalStateException when the server refused a request or part of one
   */
  Result load(String url, String token, Path file, PrintStream out, boolean quiet)
      throws IOException, InterruptedException {
    URI uri = URI.create(url);
    String target = uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
    Map<String, String> headers =
        Map.of("Authorization", "Bearer " + token, "Content-Type", "application/x-ndjson");
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      List<Range> ranges = ranges(channel, bytesPerRequest);
      AtomicInteger next = new AtomicInteger();
      AtomicReference<Throwable> failure = new AtomicReference<>();
      try (LoadProgress progress =
          new LoadProgress(channel.size(), out, LoadProgress.stdoutIsTerminal(), quiet)) {
        List<Thread> senders = new ArrayList<>();
        for (int i = 0; i < connections; i++) {
          Thread t =
              new Thread(
                  () -> {
                    try (PlainHttp sender = new PlainHttp(uri)) {
                      for (int r = next.getAndIncrement();
                          r < ranges.size() && failure.get() == null;
                          r = next.getAndIncrement()) {
                        Range range = ranges.get(r);
                        PlainHttp.Answer a =
                            sender.post(target, headers, channel, range.from(), range.length());
                        progress.add(accepted(a.status(), a.text()), range.length());
                      }
                    } catch (IOException | RuntimeException e) {
                      failure.compareAndSet(null, e);
                    }
                  },
                  "load-sender-" + i);
          t.setDaemon(true);
          t.start();
          senders.add(t);
        }
        for (Thread t : senders) {
          t.join();
        }
        Throwable f = failure.get();
        if (f instanceof RuntimeException r) {
          throw r;
        }
        if (f != null) {
          throw new IllegalStateException("loading failed: " + f, f);
        }
        return new Result(progress.events(), channel.size(), progress.seconds());
      }
    }
  }

  /**
   * Cuts a file into ranges of whole lines of about {@code target} bytes: each ends after the first
   * newline at or past its target size (the last one where the file ends). Only the bytes around
   * each cut are read.
   */
  static List<Range> ranges(FileChannel file, long target) throws IOException {
    List<Range> out = new ArrayList<>();
    long size = file.size();
    long from = 0;
    ByteBuffer window = ByteBuffer.allocate(64 * 1024);
    while (from < size) {
      long end = Math.min(size, from + target);
      while (end < size) { // find the newline at or after end - 1
        window.clear();
        int n = file.read(window, end - 1);
        if (n <= 0) {
          end = size;
          break;
        }
        int newline = -1;
        for (int i = 0; i < n && newline < 0; i++) {
          if (window.get(i) == '\n') {
            newline = i;
          }
        }
        if (newline >= 0) {
          end = end - 1 + newline + 1;
          break;
        }
        end += n;
      }
      end = Math.min(end, size);
      out.add(new Range(from, end - from));
      from = end;
    }
    return out;
  }

  /**
   * @param status the answer's status
   * @param body the answer's body
   * @return the events the answer accepted
   * @throws IllegalStateException unless the answer is a 200 that rejected nothing
   */
  static long accepted(int status, String body) throws IOException {
    if (status != 200) {
      throw new IllegalStateException("ingestion answered " + status + ": " + body);
    }
    JsonNode a = Http.JSON.readTree(body);
    if (a.path("accepted").asLong(-1) < 0 || a.path("rejected").asLong(-1) != 0) {
      throw new IllegalStateException("ingestion did not accept every line of a request: " + body);
    }
    return a.path("accepted").asLong();
  }
}
