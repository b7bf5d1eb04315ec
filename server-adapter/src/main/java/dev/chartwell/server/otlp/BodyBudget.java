package dev.chartwell.server.otlp;

import dev.chartwell.server.http.ApiException;
import dev.chartwell.server.http.ErrorCode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The memory the requests of a protocol that reads bodies whole (OTLP, Elasticsearch bulk, Loki
 * push) may hold at once. A request is checked whole before anything of it is stored, so its
 * (decoded) body is held while it is decoded; many large requests at once could fill the heap. Each
 * request reserves what it holds as it reads; a request that finds the budget spent is answered 429
 * with {@code Retry-After}, which OTLP exporters honour by sending it again. The budget is never
 * smaller than one body at the limit, so every request can pass alone.
 */
public final class BodyBudget {
  static final int RETRY_AFTER_SECONDS = 1;

  /** The largest block a body of unknown length is read into. */
  static final int BLOCK = 1 << 20;

  private static final int MAX_ARRAY = Integer.MAX_VALUE - 8;

  private final long capacity;
  private long used; // guarded by this

  /**
   * @param capacity the bytes all requests may hold together
   */
  BodyBudget(long capacity) {
    this.capacity = capacity;
  }

  /**
   * @param maxBodyBytes the body limit of the requests
   * @return a budget of a quarter of the heap, and at least two bodies at the limit
   */
  public static BodyBudget forHeap(long maxBodyBytes) {
    return new BodyBudget(Math.max(Runtime.getRuntime().maxMemory() / 4, 2 * maxBodyBytes));
  }

  /** Bytes reserved by one request; {@link #close()} gives them back. */
  public final class Held implements AutoCloseable {
    private long bytes;

    /**
     * Takes more of the budget, or fails with 429 when it is spent.
     *
     * @param more bytes
     */
    public void grow(long more) {
      synchronized (BodyBudget.this) {
        if (used + more > capacity) {
          throw new ApiException(
              ErrorCode.TOO_MANY_REQUESTS,
              String.format(
                  Locale.ROOT,
                  "requests being decoded hold %,d bytes, the most the server holds at once;"
                      + " send this one again later",
                  used),
              Map.of("Retry-After", String.valueOf(RETRY_AFTER_SECONDS)));
        }
        used += more;
      }
      bytes += more;
    }

    /**
     * Gives back part of the reservation.
     *
     * @param less bytes
     */
    public void shrink(long less) {
      long n = Math.min(less, bytes);
      synchronized (BodyBudget.this) {
        used -= n;
      }
      bytes -= n;
    }

    @Override
    public void close() {
      shrink(bytes);
    }
  }

  /**
   * @return a new, empty reservation
   */
  public Held hold() {
    return new Held();
  }

  /**
   * Reads a body whole, reserving its bytes as they arrive. When the budget is spent the rest of
   * the body is read and dropped, so that the client, still sending, receives the 429.
   *
   * @param in the body (it fails by itself past the route's limit)
   * @param held the reservation to grow
   * @return the body
   * @throws IOException when reading fails
   */
  public static byte[] read(InputStream in, Held held) throws IOException {
    return read(in, held, 0);
  }

  /**
   * {@link #read(InputStream, Held)} for a body of a length known beforehand (a request's {@code
   * Content-Length} when it is not compressed): read into one array of that length, without the
   * copies of a growing one. A body longer or shorter than said is read all the same.
   *
   * @param in the body (it fails by itself past the route's limit)
   * @param held the reservation to grow
   * @param expected the body's length as declared, or 0 when unknown
   * @return the body
   * @throws IOException when reading fails
   */
  public static byte[] read(InputStream in, Held held, long expected) throws IOException {
    int initial = expected > 0 && expected < MAX_ARRAY ? (int) expected : 8192;
    held.grow(initial); // reserved before it is taken
    // Blocks, each as large as all before it up to BLOCK, joined once at the end: a body of
    // unknown length (chunked) is copied once, where a doubling array copied it about twice.
    List<byte[]> full = new ArrayList<>();
    byte[] block = new byte[initial];
    int used = 0;
    long size = 0;
    try {
      while (true) {
        if (used == block.length) {
          int b = in.read(); // the end, or more than said: only then another block
          if (b < 0) {
            break;
          }
          full.add(block);
          int next = (int) Math.min(BLOCK, Math.max(8192, size));
          held.grow(next);
          block = new byte[next];
          block[0] = (byte) b;
          used = 1;
          size++;
        }
        int n = in.read(block, used, block.length - used);
        if (n < 0) {
          break;
        }
        used += n;
        size += n;
      }
    } catch (ApiException e) {
      if (e.code() == ErrorCode.TOO_MANY_REQUESTS) {
        in.transferTo(OutputStream.nullOutputStream());
      }
      throw e;
    }
    if (full.isEmpty() && used == block.length) {
      return block;
    }
    if (size > MAX_ARRAY) {
      throw new ApiException(
          ErrorCode.PAYLOAD_TOO_LARGE, "the request body is larger than one array can hold");
    }
    byte[] body = new byte[(int) size];
    int at = 0;
    for (byte[] f : full) {
      System.arraycopy(f, 0, body, at, f.length);
      at += f.length;
    }
    System.arraycopy(block, 0, body, at, used);
    held.shrink(block.length - used); // the blocks are garbage now; the body takes their place
    return body;
  }
}
