package dev.chartwell.bench.http;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Sends an NDJSON file to a server's ingestion endpoint: the file is cut into requests of whole
 * lines, which {@code connections} threads send at the same time, each on its own connection. Every
 * answer must accept all of its lines; the first failure stops the load and is reported.
 */
final class Loader {
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

  /** Whole lines: {@code bytes[0, length)} holds {@code lines} of them. */
  record Chunk(byte[] bytes, int length, int lines) {}

  private static final Chunk END = new Chunk(new byte[0], 0, 0);

  private final Http http;
  private final int connections;
  private final int linesPerRequest;

  /**
   * @param http the client
   * @param connections requests in flight at once
   * @param linesPerRequest lines in each request
   */
  Loader(Http http, int connections, int linesPerRequest) {
    if (connections < 1 || linesPerRequest < 1) {
      throw new IllegalArgumentException("connections and lines per request must be at least 1");
    }
    this.http = http;
    this.connections = connections;
    this.linesPerRequest = linesPerRequest;
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
    BlockingQueue<Chunk> queue = new ArrayBlockingQueue<>(connections);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    long size = Files.size(file);
    long events;
    double seconds;
    try (LoadProgress progress =
        new LoadProgress(size, out, LoadProgress.stdoutIsTerminal(), quiet)) {
      List<Thread> senders = new ArrayList<>();
      for (int i = 0; i < connections; i++) {
        Thread t = new Thread(() -> send(url, token, queue, progress, failure), "load-sender-" + i);
        t.setDaemon(true);
        t.start();
        senders.add(t);
      }
      try (InputStream in = Files.newInputStream(file)) {
        cut(in, chunk -> !put(queue, chunk, failure));
      } finally {
        for (int i = 0; i < connections; i++) {
          put(queue, END, null);
        }
        for (Thread t : senders) {
          t.join();
        }
      }
      seconds = progress.seconds();
      events = progressEvents(progress, failure);
    }
    return new Result(events, size, seconds);
  }

  private static long progressEvents(LoadProgress progress, AtomicReference<Throwable> failure) {
    Throwable f = failure.get();
    if (f instanceof RuntimeException r) {
      throw r;
    }
    if (f != null) {
      throw new IllegalStateException("loading failed: " + f, f);
    }
    return progress.events();
  }

  /** Queues a chunk unless the load failed; waits while every sender is busy. */
  private static boolean put(
      BlockingQueue<Chunk> queue, Chunk chunk, AtomicReference<Throwable> failure) {
    try {
      while (failure == null || failure.get() == null) {
        if (queue.offer(chunk, 100, java.util.concurrent.TimeUnit.MILLISECONDS)) {
          return true;
        }
      }
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private void send(
      String url,
      String token,
      BlockingQueue<Chunk> queue,
      LoadProgress progress,
      AtomicReference<Throwable> failure) {
    while (true) {
      Chunk c;
      try {
        c = queue.take();
      } catch (InterruptedException e) {
        failure.compareAndSet(null, e);
        return;
      }
      if (c == END) {
        return;
      }
      if (failure.get() != null) {
        continue; // another request failed: drain until END
      }
      try {
        HttpResponse<String> r =
            http.client()
                .send(
                    HttpRequest.newBuilder(URI.create(url))
                        .timeout(Duration.ofMinutes(10))
                        .header("Authorization", "Bearer " + token)
                        .header("Content-Type", "application/x-ndjson")
                        .POST(HttpRequest.BodyPublishers.ofByteArray(c.bytes(), 0, c.length()))
                        .build(),
                    HttpResponse.BodyHandlers.ofString());
        checkAccepted(r.statusCode(), r.body(), c.lines());
        progress.add(c.lines(), c.length());
      } catch (IOException | RuntimeException e) {
        failure.compareAndSet(null, e);
      } catch (InterruptedException e) {
        failure.compareAndSet(null, e);
        return;
      }
    }
  }

  /**
   * @param status the answer's status
   * @param body the answer's body
   * @param lines lines sent
   * @throws IllegalStateException unless every line was accepted
   */
  static void checkAccepted(int status, String body, int lines) throws IOException {
    if (status != 200) {
      throw new IllegalStateException("ingestion answered " + status + ": " + body);
    }
    JsonNode a = Http.JSON.readTree(body);
    if (a.path("accepted").asLong(-1) != lines || a.path("rejected").asLong(-1) != 0) {
      throw new IllegalStateException(
          "ingestion did not accept all " + lines + " lines of a request: " + body);
    }
  }

  /** What {@link #cut} hands each request to; returns whether to stop. */
  interface ChunkSink {
    boolean stop(Chunk chunk);
  }

  /**
   * Cuts a stream into chunks of {@code linesPerRequest} whole lines (the last one may be shorter;
   * a last line without its newline is kept whole).
   */
  void cut(InputStream in, ChunkSink sink) throws IOException {
    byte[] read = new byte[1 << 20];
    byte[] chunk = new byte[1 << 20];
    int length = 0;
    int lines = 0;
    int n;
    while ((n = in.read(read)) > 0) {
      int from = 0;
      for (int i = 0; i < n; i++) {
        if (read[i] == '\n' && ++lines == linesPerRequest) {
          chunk = append(chunk, length, read, from, i + 1 - from);
          length += i + 1 - from;
          from = i + 1;
          if (sink.stop(new Chunk(chunk, length, lines))) {
            return;
          }
          chunk = new byte[Math.max(1 << 20, length)];
          length = 0;
          lines = 0;
        }
      }
      chunk = append(chunk, length, read, from, n - from);
      length += n - from;
    }
    if (length > 0) {
      if (chunk[length - 1] != '\n') {
        lines++;
      }
      sink.stop(new Chunk(chunk, length, lines));
    }
  }

  private static byte[] append(byte[] to, int length, byte[] from, int offset, int count) {
    if (length + count > to.length) {
      to = Arrays.copyOf(to, Math.max(to.length * 2, length + count));
    }
    System.arraycopy(from, offset, to, length, count);
    return to;
  }
}
