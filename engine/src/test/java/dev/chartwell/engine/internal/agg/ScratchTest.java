package dev.chartwell.engine.internal.agg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** A thread's scratch arrays are its own, reused from call to call, and bounded. */
class ScratchTest {

  @Test
  void aThreadReusesItsArrays() {
    assertSame(Scratch.ordinals(), Scratch.ordinals());
    assertEquals(Scratch.ORDINALS, Scratch.ordinals().length);
    assertSame(Scratch.chunk(), Scratch.chunk());
    double[] grown = Scratch.values(1000);
    assertTrue(grown.length >= 1000);
    assertSame(grown, Scratch.values(1000));
    assertSame(grown, Scratch.values(10)); // a smaller call takes the same array
    assertSame(Scratch.values(Scratch.MAX_VALUES), Scratch.values(Scratch.MAX_VALUES));
    assertEquals(Scratch.MAX_VALUES, Scratch.values(Scratch.MAX_VALUES).length);
  }

  @Test
  void beyondTheBoundEachCallHasItsOwn() {
    double[] big = Scratch.values(Scratch.MAX_VALUES + 1);
    assertEquals(Scratch.MAX_VALUES + 1, big.length);
    assertNotSame(big, Scratch.values(Scratch.MAX_VALUES + 1));
    assertTrue(Scratch.values(1).length <= Scratch.MAX_VALUES); // nothing larger was kept
  }

  @Test
  void threadsHaveTheirOwn() throws InterruptedException {
    int[] mine = Scratch.ordinals();
    double[] myValues = Scratch.values(100);
    int[][] seen = new int[1][];
    double[][] seenValues = new double[1][];
    Thread other =
        new Thread(
            () -> {
              seen[0] = Scratch.ordinals();
              seenValues[0] = Scratch.values(100);
            });
    other.start();
    other.join();
    assertNotSame(mine, seen[0]);
    assertNotSame(myValues, seenValues[0]);
  }
}
