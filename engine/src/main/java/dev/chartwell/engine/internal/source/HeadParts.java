package dev.chartwell.engine.internal.source;

import dev.chartwell.engine.internal.segment.Segment;
import dev.chartwell.engine.internal.segment.SegmentBuilder;
import java.util.ArrayList;
import java.util.List;

/**
 * The head as queries see it: immutable segments over consecutive row ranges {@code [0, rows)} of
 * one head, shared by every query until the head grows.
 *
 * <p>The leading {@link #settled()} parts are kept in tiers, as a log-structured merge keeps its
 * runs: a part's tier is the base-4 logarithm of its rows, tiers never rise from older parts to
 * newer ones, and new rows are merged with the parts of lower tiers before them and, when they
 * would make {@link #FAN_IN} of one tier, with their tier-mates ({@link #settleFrom}). A row is so
 * rebuilt about {@code log8(head rows / rows per build)} times over the life of a head, and a query
 * reads at most {@code FAN_IN - 1} settled parts per tier. New rows built 1,024 at a time, a head
 * of 262,144 rows has at most 17 settled parts and each row is built 2.75 times on average (with a
 * fan-in of 4: 12 parts, 4 times; the merges are most of the sealing pool's work beside ingestion).
 * Settled parts are built off the query path, on the sealing pool ({@link HeadReads}): new rows as
 * a part of their own as soon as they arrive ({@link #settle}), and apart from that, settled parts
 * merged back into tiers ({@link #merge}), so that new rows never wait for a merge.
 *
 * <p>The parts after them are tails: the few rows a query found beyond the parts, built by that
 * query as one more part ({@link #withTail}) and shared by the queries after it, until the next
 * settled part takes them in.
 *
 * @param head the head these parts are of (identity: the head is replaced when it is sealed)
 * @param parts the parts, oldest rows first, each starting where the one before ends
 * @param settled how many of the parts, from the first, are tiered (the rest are tails)
 */
record HeadParts(SegmentBuilder head, List<Part> parts, int settled) {
  /** Parts of one tier that are rebuilt as one. */
  static final int FAN_IN = 8;

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
    if (settled < 0 || settled > parts.size()) {
      throw new IllegalArgumentException(settled + " settled parts of " + parts.size());
    }
  }

  /**
   * @param head a head
   * @return no parts yet of that head
   */
  static HeadParts none(SegmentBuilder head) {
    return new HeadParts(head, List.of(), 0);
  }

  /**
   * @return the head's rows the parts cover
   */
  int rows() {
    return parts.isEmpty() ? 0 : parts.get(parts.size() - 1).to();
  }

  /**
   * @return the head's rows the settled parts cover
   */
  int settledRows() {
    return settled == 0 ? 0 : parts.get(settled - 1).to();
  }

  /**
   * Where the next settled part, covering the head's rows up to {@code rows}, must start: the end
   * of the settled parts (the tails after them count as new rows), or the start of the settled
   * parts it is rebuilt with: those of lower tiers than the new rows before it and, when it would
   * make {@link #FAN_IN} of its tier, its tier-mates.
   *
   * @param rows the head's rows now, more than {@link #settledRows()}
   * @return the first row of the new settled part
   */
  int settleFrom(int rows) {
    int keep = settled;
    int from = settledRows();
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
   * Settled parts to merge into one, found as {@link #settleFrom} would have them if a settled part
   * were new rows: the parts of lower tiers than it before it and, when it would make {@link
   * #FAN_IN} of its tier, its tier-mates. The newest such part first, so that the parts settled
   * last, the smallest, are merged first. None when the settled parts are in tiers.
   *
   * @return the rows of the parts to merge, or {@code null}
   */
  Merge merge() {
    for (int j = settled - 1; j > 0; j--) {
      Part p = parts.get(j);
      int from = new HeadParts(head, parts.subList(0, j), j).settleFrom(p.to());
      if (from < p.from()) {
        return new Merge(from, p.to());
      }
    }
    return null;
  }

  /**
   * Settled parts to merge.
   *
   * @param from the first row of the first part
   * @param to one past the last row of the last part
   */
  record Merge(int from, int to) {}

  /**
   * @param tail the head's rows from {@link #rows()} on, sealed
   * @return these parts and the tail after them
   */
  HeadParts withTail(Part tail) {
    if (tail.from() != rows()) {
      throw new IllegalArgumentException("a tail from row " + tail.from() + " after " + rows());
    }
    List<Part> next = new ArrayList<>(parts.size() + 1);
    next.addAll(parts);
    next.add(tail);
    return new HeadParts(head, next, settled);
  }

  /**
   * Takes in a settled part built from an earlier state of these parts: new rows from {@link
   * #settledRows()} on, or settled parts merged as {@link #merge()} says. The settled parts before
   * it are kept, and so are the parts that start where it ends (with the parts after them: settled
   * parts built meanwhile stay settled); a tail it covers only in part goes, with every part after
   * it, and the next query builds those rows again.
   *
   * @param part rows {@code [from, to)} of the head, sealed
   * @return the parts with it, or {@code null} when the parts before it no longer end at its start
   */
  HeadParts settle(Part part) {
    List<Part> next = new ArrayList<>(parts.size() + 1);
    int at = 0;
    for (int i = 0; i < settled && parts.get(i).to() <= part.from(); i++) {
      next.add(parts.get(i));
      at = parts.get(i).to();
    }
    if (at != part.from()) {
      return null;
    }
    next.add(part);
    int settledNow = next.size();
    at = part.to();
    for (int i = 0; i < parts.size(); i++) {
      Part p = parts.get(i);
      if (p.from() == at) {
        next.add(p);
        at = p.to();
        if (i < settled) {
          settledNow++; // settled parts come first, so these stay before every tail
        }
      }
    }
    return new HeadParts(head, next, settledNow);
  }

  /**
   * @param from the first row of a settled part
   * @param to one past the last row of a settled part at or after it
   * @return the segments of the settled parts from the one to the other, oldest rows first: the
   *     parts a settled part over those rows is merged from, whose token indexes it merges
   * @throws IllegalArgumentException when no settled parts start and end there
   */
  List<Segment> settledSegments(int from, int to) {
    List<Segment> out = new ArrayList<>();
    int at = from;
    for (int i = 0; i < settled && at < to; i++) {
      Part p = parts.get(i);
      if (p.from() == at) {
        out.add(p.segment());
        at = p.to();
      }
    }
    if (at != to) {
      throw new IllegalArgumentException("no settled parts from row " + from + " to " + to);
    }
    return out;
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
