package dev.chartwell.engine.internal.source;

import dev.chartwell.engine.internal.segment.Segment;
import dev.chartwell.engine.internal.segment.SegmentBuilder;
import java.util.ArrayList;
import java.util.List;

/**
 * The head as queries see it: immutable segments over consecutive row ranges {@code [0, rows)} of
 * one head, shared by every query until the head grows. A query that finds more rows in the head
 * builds only what was added since ({@link #rebuildFrom}), so a source being filled does not
 * rebuild its whole head for each query.
 *
 * <p>Parts are kept in tiers, as a log-structured merge keeps its runs: a part's tier is the base-4
 * logarithm of its rows, tiers never rise from older parts to newer ones, and new rows are built
 * together with the parts of lower tiers before them and, when they would make {@link #FAN_IN} of
 * one tier, with their tier-mates. A row is so rebuilt about {@code log4(head rows / rows per
 * query)} times over the life of a head, and a query reads at most {@code FAN_IN - 1} parts per
 * tier (a head of 262,144 rows has tiers 0 to 9: at most 30 parts).
 *
 * @param head the head these parts are of (identity: the head is replaced when it is sealed)
 * @param parts the parts, oldest rows first, each starting where the one before ends
 */
record HeadParts(SegmentBuilder head, List<Part> parts) {
  /** Parts of one tier that are rebuilt as one. */
  static final int FAN_IN = 4;

  /**
   * One part.
   *
   * @param from the head's first row in it
   * @param to one past its last
   * @param segment the rows, sealed
   */
  record Part(int from, int to, Segment segment) {}

  HeadParts {
    parts = List.copyOf(parts);
  }

  /**
   * @param head a head
   * @return no parts yet of that head
   */
  static HeadParts none(SegmentBuilder head) {
    return new HeadParts(head, List.of());
  }

  /**
   * @return the head's rows the parts cover
   */
  int rows() {
    return parts.isEmpty() ? 0 : parts.get(parts.size() - 1).to();
  }

  /**
   * Where the part covering the head's rows up to {@code rows} must start: this part list's end, or
   * the start of the tier-mates it is rebuilt with.
   *
   * @param rows the head's rows now, more than {@link #rows()}
   * @return the first row of the new part
   */
  int rebuildFrom(int rows) {
    int keep = parts.size();
    int from = rows();
    while (true) {
      // Parts of lower tiers than the new rows join them: together they are fewer rows than those.
      while (keep > 0 && tier(rowsOf(parts.get(keep - 1))) < tier(rows - from)) {
        keep--;
        from = keep == 0 ? 0 : parts.get(keep - 1).to();
      }
      int tier = tier(rows - from);
      int mates = 0;
      while (mates < keep && tier(rowsOf(parts.get(keep - 1 - mates))) == tier) {
        mates++;
      }
      if (mates < FAN_IN - 1) {
        return from;
      }
      keep -= mates;
      from = keep == 0 ? 0 : parts.get(keep - 1).to();
    }
  }

  /**
   * @param part rows {@code [from, rows)} of the head, sealed, where {@code from} came from {@link
   *     #rebuildFrom}
   * @return these parts with those before {@code part} kept and the rest replaced by it
   */
  HeadParts with(Part part) {
    List<Part> next = new ArrayList<>(parts.size() + 1);
    for (Part p : parts) {
      if (p.to() <= part.from()) {
        next.add(p);
      }
    }
    next.add(part);
    return new HeadParts(head, next);
  }

  /**
   * @return the parts' segments, oldest rows first
   */
  List<Segment> segments() {
    List<Segment> out = new ArrayList<>(parts.size());
    for (Part p : parts) {
      out.add(p.segment());
    }
    return out;
  }

  /** A part's tier: the base-4 logarithm of its rows. */
  static int tier(int rows) {
    return (31 - Integer.numberOfLeadingZeros(Math.max(1, rows))) >> 1;
  }

  private static int rowsOf(Part p) {
    return p.to() - p.from();
  }
}
