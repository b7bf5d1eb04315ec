package dev.chartwell.server.alerts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** OK, PENDING and ALERT, and which notifications each step calls for. */
class TransitionTest {
  static final long M = 60_000;
  static final Threshold ABOVE_5 = new Threshold("above", 5, 0);

  /** Steps one instance through windows of the given values; returns each step. */
  static List<Transition> run(Transition.Rules rules, double[] values, boolean[] silenced) {
    List<Transition> out = new ArrayList<>();
    Instance i = Instance.fresh("");
    for (int k = 0; k < values.length; k++) {
      Transition t =
          Transition.step(i, values[k], new Window(k * M, (k + 1) * M), rules, silenced[k]);
      out.add(t);
      i = t.next();
    }
    return out;
  }

  static String states(List<Transition> steps) {
    StringBuilder sb = new StringBuilder();
    for (Transition t : steps) {
      sb.append(t.next().state().charAt(0));
      sb.append(t.kind() == null ? "" : "(" + t.kind() + (t.suppressed() ? " silenced" : "") + ")");
      sb.append(' ');
    }
    return sb.toString().strip();
  }

  @Test
  void enteringAndLeavingAlertNotifyOnceEach() {
    List<Transition> steps =
        run(new Transition.Rules(ABOVE_5, 1, 0), new double[] {1, 6, 7, 9, 2, 3}, new boolean[6]);
    assertEquals("O A(ALERT) A A O(RESOLVE) O", states(steps), "no repeats by default");
    assertEquals(2 * M, steps.get(1).next().notifiedAt(), "the end of the window notified");
  }

  @Test
  void pendingUntilEnoughConsecutiveWindows() {
    List<Transition> steps =
        run(
            new Transition.Rules(ABOVE_5, 3, 0),
            new double[] {6, 6, 1, 6, 6, 6, 6, 0},
            new boolean[8]);
    assertEquals("P P O P P A(ALERT) A O(RESOLVE)", states(steps));
    assertNull(steps.get(2).kind(), "leaving PENDING says nothing: nothing was sent");
  }

  @Test
  void renotifyRepeatsWhileInAlertAtMostThatOften() {
    List<Transition> steps =
        run(
            new Transition.Rules(ABOVE_5, 1, 3 * M),
            new double[] {6, 6, 6, 6, 6, 6, 6, 1},
            new boolean[8]);
    assertEquals(
        "A(ALERT) A A A(REPEAT) A A A(REPEAT) O(RESOLVE)", states(steps), "every 3 minutes");
  }

  @Test
  void silenceSuppressesSendsButNotStatesAndTellsAfterwards() {
    boolean[] silenced = {false, true, true, true, false, false};
    List<Transition> steps =
        run(new Transition.Rules(ABOVE_5, 1, 0), new double[] {1, 6, 6, 6, 6, 1}, silenced);
    assertEquals(
        "O A(ALERT silenced) A(ALERT silenced) A(ALERT silenced) A(ALERT) O(RESOLVE)",
        states(steps),
        "an ALERT never sent is sent once the silence ends");
    List<Transition> quiet =
        run(
            new Transition.Rules(ABOVE_5, 1, 0),
            new double[] {6, 1, 6},
            new boolean[] {true, true, false});
    assertEquals(
        "A(ALERT silenced) O A(ALERT)", states(quiet), "no resolve for what was never told");
    assertTrue(quiet.get(0).suppressed());
    assertFalse(quiet.get(2).suppressed());
  }

  @Test
  void resolveAfterSilenceIsSuppressedToo() {
    List<Transition> steps =
        run(new Transition.Rules(ABOVE_5, 1, 0), new double[] {6, 1}, new boolean[] {false, true});
    assertEquals("A(ALERT) O(RESOLVE silenced)", states(steps));
    assertEquals(0, steps.get(1).next().notifiedAt());
  }
}
