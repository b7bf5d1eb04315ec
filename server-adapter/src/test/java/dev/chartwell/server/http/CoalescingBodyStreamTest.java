package dev.chartwell.server.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.io.Content;
import org.junit.jupiter.api.Test;

/**
 * The body stream's batching, over a scripted source: a chunk is what one read of the source gives,
 * a gap is a read that finds nothing until the reader waits (a demand) or pauses.
 */
class CoalescingBodyStreamTest {
  private static final Object GAP = new Object();

  /** A source that plays a script of chunks and gaps, and counts the demands (waits). */
  private static final class Script implements Content.Source {
    final Deque<Object> steps = new ArrayDeque<>();
    int demands;

    Script add(Object... items) {
      steps.addAll(Arrays.asList(items));
      return this;
    }

    @Override
    public Content.Chunk read() {
      return steps.peek() == GAP ? null : (Content.Chunk) steps.poll();
    }

    @Override
    public void demand(Runnable ready) {
      demands++;
      passGap();
      ready.run();
    }

    void passGap() {
      if (steps.peek() == GAP) {
        steps.poll();
      }
    }

    CoalescingBodyStream stream() {
      return new CoalescingBodyStream(this, this::passGap);
    }

    @Override
    public void fail(Throwable failure) {}
  }

  private static Content.Chunk bytes(int n, byte value) {
    byte[] b = new byte[n];
    Arrays.fill(b, value);
    return Content.Chunk.from(ByteBuffer.wrap(b), false);
  }

  private static byte[] readAll(CoalescingBodyStream in) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buffer = new byte[1000];
    for (int n; (n = in.read(buffer, 0, buffer.length)) >= 0; ) {
      out.write(buffer, 0, n);
    }
    return out.toByteArray();
  }

  @Test
  void aTricklingSenderIsReadAfterAPauseInsteadOfAWait() throws IOException {
    Script s =
        new Script()
            .add(GAP, bytes(10, (byte) 1), GAP, bytes(10, (byte) 2), GAP, bytes(10, (byte) 3))
            .add(GAP, Content.Chunk.EOF);
    CoalescingBodyStream in = s.stream();
    byte[] body = readAll(in);
    assertEquals(30, body.length);
    assertEquals(3, body[29]);
    assertEquals(3, in.pauses(), "a pause after each small read");
    assertEquals(1, s.demands, "only the first read, before any byte, waits");
  }

  @Test
  void aSenderOfLargePiecesNeverPausesTheReader() throws IOException {
    Script s =
        new Script()
            .add(bytes(CoalescingBodyStream.SMALL, (byte) 1), GAP)
            .add(bytes(CoalescingBodyStream.SMALL * 2, (byte) 2), GAP, Content.Chunk.EOF);
    CoalescingBodyStream in = s.stream();
    assertEquals(CoalescingBodyStream.SMALL * 3, readAll(in).length);
    assertEquals(0, in.pauses());
    assertEquals(2, s.demands);
  }

  @Test
  void pausesGoOnWhileEachBringsLessThanAFastSenderWould() throws IOException {
    int some = CoalescingBodyStream.SMALL * 3; // more than a wait must bring, less than a pause
    Script s =
        new Script()
            .add(GAP, bytes(10, (byte) 1), GAP, bytes(some, (byte) 2), GAP, bytes(some, (byte) 3))
            .add(GAP, bytes(CoalescingBodyStream.FAST, (byte) 4), GAP, bytes(10, (byte) 5))
            .add(GAP, Content.Chunk.EOF);
    CoalescingBodyStream in = s.stream();
    assertEquals(20 + 2 * some + CoalescingBodyStream.FAST, readAll(in).length);
    assertEquals(4, in.pauses(), "after the small read and after each pause that brought some");
    assertEquals(2, s.demands, "the first wait, and the one after the pause that brought much");
  }

  @Test
  void aPauseThatBringsNothingIsFollowedByAWait() throws IOException {
    Script s =
        new Script()
            .add(GAP, bytes(10, (byte) 1), GAP, GAP, bytes(10, (byte) 2), GAP, Content.Chunk.EOF);
    CoalescingBodyStream in = s.stream();
    assertEquals(20, readAll(in).length);
    assertEquals(2, in.pauses(), "one after each small read");
    assertEquals(2, s.demands, "the first wait, and the one after the pause that found nothing");
  }

  @Test
  void aReadTakesEveryChunkAlreadyThereWithoutWaiting() throws IOException {
    Script s = new Script().add(bytes(10, (byte) 1), bytes(20, (byte) 2), bytes(30, (byte) 3));
    s.add(GAP, bytes(5, (byte) 4), Content.Chunk.EOF);
    CoalescingBodyStream in = s.stream();
    byte[] buffer = new byte[1000];
    assertEquals(60, in.read(buffer, 0, 1000), "three chunks in one read");
    assertEquals(0, s.demands, "and no wait for the fourth");
    assertEquals(3, buffer[59]);
    assertEquals(5, in.read(buffer, 0, 1000));
    assertEquals(-1, in.read(buffer, 0, 1000));
  }

  @Test
  void theBytesAreThoseSentWhateverTheReadSizes() throws IOException {
    Script s = new Script();
    ByteArrayOutputStream sent = new ByteArrayOutputStream();
    for (int i = 0; i < 300; i++) {
      byte[] piece = new byte[1 + (i * 37) % 500];
      Arrays.fill(piece, (byte) i);
      sent.writeBytes(piece);
      s.add(Content.Chunk.from(ByteBuffer.wrap(piece), false));
      if (i % 3 == 0) {
        s.add(GAP);
      }
    }
    s.add(Content.Chunk.from(ByteBuffer.wrap(new byte[] {7}), true));
    sent.write(7);
    CoalescingBodyStream in = s.stream();
    ByteArrayOutputStream got = new ByteArrayOutputStream();
    for (int b; (b = in.read()) >= 0; ) {
      got.write(b);
    }
    assertArrayEquals(sent.toByteArray(), got.toByteArray());
    assertEquals(-1, in.read(), "the end stays the end");
  }

  @Test
  void aFailedBodyIsAnIOExceptionCarryingTheCause() {
    TimeoutException stalled = new TimeoutException("idle");
    Script s = new Script().add(bytes(10, (byte) 1), Content.Chunk.from(stalled, true));
    CoalescingBodyStream in = s.stream();
    IOException e = assertThrows(IOException.class, () -> readAll(in));
    assertSame(stalled, e.getCause());
  }
}
