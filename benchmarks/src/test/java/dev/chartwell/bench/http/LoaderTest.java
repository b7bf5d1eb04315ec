package dev.chartwell.bench.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LoaderTest {
  @TempDir Path dir;
  HttpServer server;

  @AfterEach
  void stop() {
    if (server != null) {
      server.stop(0);
    }
  }

  /** The requests a text is cut into, as text. */
  private List<String> cut(String text, long target) throws Exception {
    Path file = Files.writeString(dir.resolve("cut.ndjson"), text);
    List<String> out = new ArrayList<>();
    try (FileChannel channel = FileChannel.open(file)) {
      long next = 0;
      for (Loader.Range r : Loader.ranges(channel, target)) {
        assertEquals(next, r.from(), "ranges follow each other");
        next = r.from() + r.length();
        out.add(text.substring((int) r.from(), (int) next));
      }
      assertEquals(channel.size(), next, "and cover the file");
    }
    return out;
  }

  @Test
  void aFileIsCutIntoRequestsOfWholeLines() throws Exception {
    assertEquals(List.of("a\nb\n", "c\nd\n", "e\n"), cut("a\nb\nc\nd\ne\n", 4));
    assertEquals(List.of("a\nb\n", "c\nd\n", "e\n"), cut("a\nb\nc\nd\ne\n", 3));
    assertEquals(List.of("a\nb\n", "c"), cut("a\nb\nc", 4), "a last line without newline");
    assertEquals(List.of("a\nb\n"), cut("a\nb\n", 100));
    assertEquals(List.of("a\n", "b\n"), cut("a\nb\n", 1));
    assertEquals(List.of(), cut("", 2));
  }

  @Test
  void longLinesAcrossReadWindowsStayWhole() throws Exception {
    String big = "x".repeat(300_000); // longer than the 64 KiB window that looks for a newline
    assertEquals(List.of(big + "\n", "y\n"), cut(big + "\ny\n", 10));
  }

  @Test
  void everyLineArrivesOnceOverConcurrentConnections() throws Exception {
    Set<String> received = Collections.synchronizedSet(new HashSet<>());
    AtomicInteger inFlight = new AtomicInteger();
    AtomicInteger maxInFlight = new AtomicInteger();
    CountDownLatch twoArrived = new CountDownLatch(2);
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(Executors.newFixedThreadPool(4));
    server.createContext(
        "/api/v2/sources/s/events",
        ex -> {
          maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
          String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
          String[] lines = body.split("\n");
          for (String l : lines) {
            assertTrue(received.add(l), "line sent twice: " + l);
          }
          // The first two requests wait for each other (a minute at most, for a loader that never
          // sends two at once): both connections are busy at the same time, however slow the
          // machine.
          twoArrived.countDown();
          try {
            twoArrived.await(60, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          byte[] answer =
              ("{\"accepted\":" + lines.length + ",\"rejected\":0,\"errors\":[]}")
                  .getBytes(StandardCharsets.UTF_8);
          inFlight.decrementAndGet();
          ex.sendResponseHeaders(200, answer.length);
          ex.getResponseBody().write(answer);
          ex.close();
        });
    server.start();
    StringBuilder ndjson = new StringBuilder();
    for (int i = 0; i < 1_000; i++) {
      ndjson.append("{\"n\":").append(i).append("}\n");
    }
    Path file = Files.writeString(dir.resolve("events.ndjson"), ndjson);
    ByteArrayOutputStream progress = new ByteArrayOutputStream();
    Loader.Result r =
        new Loader(2, 200)
            .load(
                "http://127.0.0.1:" + server.getAddress().getPort() + "/api/v2/sources/s/events",
                "token",
                file,
                new PrintStream(progress, true, StandardCharsets.UTF_8),
                true);
    assertEquals(1_000, r.events());
    assertEquals(Files.size(file), r.bytes());
    assertEquals(1_000, received.size());
    assertEquals(2, maxInFlight.get(), "two requests at a time");
  }

  @Test
  void aRequestNotAcceptedWholeStopsTheLoadSayingWhy() throws Exception {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/e",
        ex -> {
          ex.getRequestBody().readAllBytes();
          byte[] answer =
              "{\"accepted\":1,\"rejected\":1,\"errors\":[{\"line\":2,\"error\":\"bad\"}]}"
                  .getBytes(StandardCharsets.UTF_8);
          ex.sendResponseHeaders(200, answer.length);
          ex.getResponseBody().write(answer);
          ex.close();
        });
    server.start();
    Path file = Files.writeString(dir.resolve("events.ndjson"), "{}\n{}\n".repeat(50));
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class,
            () ->
                new Loader(2, 6)
                    .load(
                        "http://127.0.0.1:" + server.getAddress().getPort() + "/e",
                        "t",
                        file,
                        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                        true));
    assertTrue(e.getMessage().contains("did not accept every line"), e.getMessage());
    assertTrue(e.getMessage().contains("\"error\":\"bad\""), e.getMessage());
  }

  @Test
  void anErrorStatusIsReportedWithItsBody() {
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class,
            () -> Loader.accepted(503, "{\"status\":503,\"error\":\"full\"}"));
    assertEquals("ingestion answered 503: {\"status\":503,\"error\":\"full\"}", e.getMessage());
  }
}
