package dev.chartwell.engine.internal.filter;

/**
 * A filter leaf's test of one field value, for each type a column can have. Segment evaluation
 * calls it once per dictionary entry (strings) or once per row (numbers), or not at all when an
 * index or the zone map decides.
 */
abstract class ValuePredicate {
  abstract boolean onString(String v);

  abstract boolean onLong(long v);

  abstract boolean onDouble(double v);

  abstract boolean onBool(boolean v);

  /** Whether an event without the field matches (only {@code IS NULL} says yes). */
  boolean onAbsent() {
    return false;
  }

  /** Zone map: whether any long in {@code [min, max]} may match. */
  boolean mayMatchLongs(long min, long max) {
    return true;
  }

  /** Zone map: whether any double in {@code [min, max]} may match. */
  boolean mayMatchDoubles(double min, double max) {
    return true;
  }

  /** A predicate that tests the text form of every value (strings, numbers and booleans alike). */
  abstract static class OnText extends ValuePredicate {
    @Override
    boolean onLong(long v) {
      return onString(Numbers.text(v));
    }

    @Override
    boolean onDouble(double v) {
      return onString(Numbers.text(v));
    }

    @Override
    boolean onBool(boolean v) {
      return onString(Boolean.toString(v));
    }
  }
}
