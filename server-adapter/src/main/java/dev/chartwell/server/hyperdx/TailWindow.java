package dev.chartwell.server.hyperdx;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The events of a live tail's lateness window that are accounted for (sent, or reported skipped),
 * as a multiset of fingerprints by timestamp: a search of the window finds them again, and only the
 * others are new. Two events alike in every selected column share a fingerprint and are counted
 * apart, so that the second one is still sent.
 */
final class TailWindow {
  private final TreeMap<Long, Map<Long, Integer>> byTime = new TreeMap<>();
  private long start;
  private int size;

  /**
   * @param start the window's first millisecond
   */
  TailWindow(long start) {
    this.start = start;
  }

  /**
   * @return the window's first millisecond
   */
  long start() {
    return start;
  }

  /**
   * @return the events accounted for in the window
   */
  int size() {
    return size;
  }

  /**
   * Moves the window's start forward (never back), forgetting the events before it.
   *
   * @param to the new first millisecond
   */
  void advance(long to) {
    if (to <= start) {
      return;
    }
    start = to;
    Map<Long, Map<Long, Integer>> gone = byTime.headMap(to);
    for (Map<Long, Integer> m : gone.values()) {
      for (int n : m.values()) {
        size -= n;
      }
    }
    gone.clear();
  }

  /**
   * @param time an event's timestamp (in the window)
   * @param fingerprint its fingerprint
   */
  void add(long time, long fingerprint) {
    if (time < start) {
      return;
    }
    byTime.computeIfAbsent(time, t -> new HashMap<>()).merge(fingerprint, 1, Integer::sum);
    size++;
  }

  /**
   * The events of a search of the window that are not accounted for: as many of each fingerprint as
   * the search found beyond those accounted.
   *
   * @param times the found events' timestamps
   * @param fingerprints their fingerprints, in the same order
   * @return the positions of the new ones, in the order found
   */
  List<Integer> fresh(List<Long> times, List<Long> fingerprints) {
    Map<Long, Map<Long, Integer>> used = new HashMap<>();
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < times.size(); i++) {
      long t = times.get(i);
      long f = fingerprints.get(i);
      Map<Long, Integer> known = byTime.get(t);
      int accounted = known == null ? 0 : known.getOrDefault(f, 0);
      int seen = used.computeIfAbsent(t, x -> new HashMap<>()).merge(f, 1, Integer::sum);
      if (seen > accounted) {
        out.add(i);
      }
    }
    return out;
  }

  /**
   * A 64-bit fingerprint of an event's text.
   *
   * @param text the event's columns as text
   * @return its fingerprint
   */
  static long fingerprint(String text) {
    long h = 0xcbf29ce484222325L; // FNV-1a, 64 bits
    for (int i = 0; i < text.length(); i++) {
      h ^= text.charAt(i);
      h *= 0x100000001b3L;
    }
    return h;
  }
}
