package dev.chartwell.server.otlp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.chartwell.server.http.ApiException;
import java.io.ByteArrayInputStream;
import org.junit.jupiter.api.Test;

class BodyBudgetTest {
  @Test
  void requestsShareTheBudgetAndGiveItBack() throws Exception {
    BodyBudget budget = new BodyBudget(100_000);
    byte[] body = new byte[60_000];
    new java.util.Random(1).nextBytes(body);
    try (BodyBudget.Held first = budget.hold()) {
      assertArrayEquals(body, BodyBudget.read(new ByteArrayInputStream(body), first));
      ByteArrayInputStream second = new ByteArrayInputStream(body);
      try (BodyBudget.Held held = budget.hold()) {
        ApiException e = assertThrows(ApiException.class, () -> BodyBudget.read(second, held));
        assertEquals(429, e.code().status());
        assertEquals("1", e.headers().get("Retry-After"));
        assertEquals(0, second.available()); // read to its end, so the client hears the answer
      }
    }
    try (BodyBudget.Held again = budget.hold()) {
      assertArrayEquals(body, BodyBudget.read(new ByteArrayInputStream(body), again));
    }
  }

  /** A declared length sizes the array; a body shorter or longer than declared is read whole. */
  @Test
  void aDeclaredLengthIsAHintOnly() throws Exception {
    BodyBudget budget = new BodyBudget(1_000_000);
    byte[] body = new byte[50_000];
    new java.util.Random(2).nextBytes(body);
    for (long declared : new long[] {0, 1, 49_999, 50_000, 50_001, 200_000}) {
      try (BodyBudget.Held held = budget.hold()) {
        assertArrayEquals(
            body,
            BodyBudget.read(new ByteArrayInputStream(body), held, declared),
            "declared " + declared);
      }
    }
    try (BodyBudget.Held held = budget.hold()) {
      assertEquals(0, BodyBudget.read(new ByteArrayInputStream(new byte[0]), held, 10).length);
    }
    try (BodyBudget.Held held = budget.hold()) {
      ApiException e =
          assertThrows(
              ApiException.class,
              () -> BodyBudget.read(new ByteArrayInputStream(body), held, 2_000_000));
      assertEquals(429, e.code().status(), "a declared length past the budget is refused first");
    }
  }

  /**
   * A body of unknown length, past several blocks and read in uneven pieces as a chunked body is,
   * comes back whole, and the request then holds the body's size, no more: the next request fits.
   */
  @Test
  void aBodyOfUnknownLengthIsReadWholeAndHoldsItsSize() throws Exception {
    int size = 3 * BodyBudget.BLOCK + 12_345;
    byte[] body = new byte[size];
    new java.util.Random(3).nextBytes(body);
    long capacity = 2L * size + BodyBudget.BLOCK;
    BodyBudget budget = new BodyBudget(capacity);
    java.util.Random pieces = new java.util.Random(4);
    java.io.InputStream uneven =
        new java.io.FilterInputStream(new ByteArrayInputStream(body)) {
          @Override
          public int read(byte[] b, int off, int len) throws java.io.IOException {
            return super.read(b, off, Math.min(len, 1 + pieces.nextInt(5_000)));
          }
        };
    try (BodyBudget.Held held = budget.hold()) {
      assertArrayEquals(body, BodyBudget.read(uneven, held));
      try (BodyBudget.Held next = budget.hold()) {
        next.grow(capacity - size); // all that is left when the first holds its size
      }
    }
  }

  @Test
  void theBudgetHoldsAtLeastTwoBodiesAtTheLimit() throws Exception {
    BodyBudget budget = BodyBudget.forHeap(Long.MAX_VALUE / 4);
    try (BodyBudget.Held held = budget.hold()) {
      held.grow(Long.MAX_VALUE / 2 - 1);
    }
  }
}
