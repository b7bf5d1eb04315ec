package dev.chartwell.server.http;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Rate limits failed authentication, with exponential back-off, along two lines:
 *
 * <ul>
 *   <li><b>Per client address</b> (an IPv6 address counts by its {@code /64} network, which one
 *       host usually holds whole): after {@code threshold} failures within {@code window}, every
 *       authenticated request from the address is refused, without its credentials being looked at,
 *       for {@code firstLockout}, doubling with each further lock-out up to {@code maxLockout}.
 *       Refusing the right secret too is what makes the lock-out slow guessing down: otherwise a
 *       guesser would still learn which guess is right.
 *   <li><b>Per claimed id</b> (an API key id, the Basic user name; a wrong service token names no
 *       service, so it counts against the address only), against guessing from many addresses: the
 *       same rule, but a locked id is refused only to addresses that have themselves failed for it.
 *       An address that has not failed for the id is still checked, and the right secret passes: an
 *       attacker cannot lock the owner of a key out from elsewhere, and each address the attacker
 *       has gets one guess per lock-out of the id.
 * </ul>
 *
 * A success forgets the address's failures and its failure for the id, and resets the id's count
 * and back-off (a lock-out in force on the id stays to its end). A record is forgotten {@code
 * forgetAfter} after both its last failure and the end of its last lock-out; each table holds at
 * most {@code maxEntries} records, the least recently used going first (a record under attack is
 * used by every attempt, so ids rotated by an attacker push out idle records first). One log line
 * per lock-out. Time comes from the given clock, so tests move it instead of sleeping.
 */
public final class FailedAuthLimiter {

  /**
   * @param threshold failures within the window that lock an address or id out
   * @param window how long failures count towards the threshold
   * @param firstLockout the first lock-out's length; each further one doubles it
   * @param maxLockout the longest lock-out
   * @param forgetAfter how long a record is kept after its last failure and the end of its last
   *     lock-out (its back-off level goes with it)
   * @param maxEntries the most records each table holds
   */
  public record Policy(
      int threshold,
      Duration window,
      Duration firstLockout,
      Duration maxLockout,
      Duration forgetAfter,
      int maxEntries) {
    /** 5 failures within a minute; 1 s, doubling to 15 min; forgotten after 15 quiet minutes. */
    public static final Policy DEFAULT =
        new Policy(
            5,
            Duration.ofMinutes(1),
            Duration.ofSeconds(1),
            Duration.ofMinutes(15),
            Duration.ofMinutes(15),
            10_000);
  }

  /** A limiter that never refuses (servers started without one, such as unit tests' own). */
  public static final FailedAuthLimiter NONE =
      new FailedAuthLimiter(Clock.systemUTC(), Policy.DEFAULT, line -> {}, true);

  private static final class Record {
    int failures;
    long windowStart;
    long lastFailure;
    long lockedUntil;
    int lockouts;

    boolean forgettable(long now, long forgetAfter) {
      return now - Math.max(lastFailure, lockedUntil) >= forgetAfter;
    }
  }

  private final Clock clock;
  private final Policy policy;
  private final Consumer<String> log;
  private final Map<String, Record> addresses;
  private final Map<String, Record> ids;
  private final Map<String, Long> failedFor; // id + '\n' + address -> the last failure
  private final boolean off;
  private long lastSweep;

  /**
   * @param clock the time
   * @param policy thresholds, lengths and sizes
   * @param log where a lock-out is reported, one line each
   */
  public FailedAuthLimiter(Clock clock, Policy policy, Consumer<String> log) {
    this(clock, policy, log, false);
  }

  private FailedAuthLimiter(Clock clock, Policy policy, Consumer<String> log, boolean off) {
    this.off = off;
    this.clock = clock;
    this.policy = policy;
    this.log = log;
    this.addresses = bounded(policy.maxEntries());
    this.ids = bounded(policy.maxEntries());
    this.failedFor = bounded(policy.maxEntries());
  }

  private static <V> Map<String, V> bounded(int max) {
    return new LinkedHashMap<>(16, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, V> eldest) {
        return size() > max;
      }
    };
  }

  /**
   * Refuses a request whose address, or whose id from this address, is locked out.
   *
   * @param address the client's address (the TCP peer); {@code null} when unknown
   * @param id the id the credentials claim (an API key id), or {@code null}
   * @throws ApiException 429 with {@code Retry-After} (seconds)
   */
  public synchronized void check(InetAddress address, String id) {
    if (off) {
      return;
    }
    long now = clock.millis();
    String a = key(address);
    Record byAddress = addresses.get(a);
    if (byAddress != null && byAddress.lockedUntil > now) {
      throw tooMany(
          "too many failed authentications from " + text(address), byAddress.lockedUntil - now);
    }
    if (id != null) {
      Record byId = ids.get(id);
      if (byId != null && byId.lockedUntil > now && failedFor.containsKey(pair(id, a))) {
        throw tooMany(
            "too many failed authentications for key id "
                + suffix(id)
                + ", including from "
                + text(address),
            byId.lockedUntil - now);
      }
    }
  }

  /**
   * Counts a failed authentication (wrong or unknown credentials).
   *
   * @param address the client's address
   * @param id the id the credentials claimed, or {@code null}
   */
  public synchronized void failed(InetAddress address, String id) {
    if (off) {
      return;
    }
    long now = clock.millis();
    sweep(now);
    String a = key(address);
    count(addresses.computeIfAbsent(a, k -> new Record()), now, "from " + text(address));
    if (id != null) {
      count(ids.computeIfAbsent(id, k -> new Record()), now, "for key id " + suffix(id));
      failedFor.put(pair(id, a), now);
    }
  }

  /**
   * Forgets the address's failures and its failure for the id; resets the id's count.
   *
   * @param address the client's address
   * @param id the id that authenticated, or {@code null}
   */
  public synchronized void succeeded(InetAddress address, String id) {
    if (off) {
      return;
    }
    String a = key(address);
    addresses.remove(a);
    if (id != null) {
      failedFor.remove(pair(id, a));
      Record r = ids.get(id);
      if (r != null) {
        r.failures = 0;
        r.lockouts = 0;
        if (r.lockedUntil <= clock.millis()) {
          ids.remove(id);
        }
      }
    }
  }

  /**
   * @return how many records the tables hold (addresses, ids, address-id pairs), for tests
   */
  synchronized int size() {
    return addresses.size() + ids.size() + failedFor.size();
  }

  private void count(Record r, long now, String what) {
    if (now - r.windowStart >= policy.window().toMillis()) {
      r.failures = 0;
      r.windowStart = now;
    }
    r.failures++;
    r.lastFailure = now;
    if (r.failures >= policy.threshold()) {
      r.lockouts++;
      long length = lockout(r.lockouts);
      r.lockedUntil = Math.max(r.lockedUntil, now + length);
      r.failures = 0;
      r.windowStart = now;
      log.accept(
          "authentication "
              + what
              + " locked out for "
              + seconds(length)
              + " s after "
              + policy.threshold()
              + " failures within "
              + policy.window().toSeconds()
              + " s (lock-out "
              + r.lockouts
              + ")");
    }
  }

  private long lockout(int n) {
    long first = policy.firstLockout().toMillis();
    long max = policy.maxLockout().toMillis();
    return n > 40 ? max : Math.min(max, first << Math.min(n - 1, 40));
  }

  private void sweep(long now) {
    long every = Math.min(policy.window().toMillis(), policy.forgetAfter().toMillis());
    if (now - lastSweep < every) {
      return;
    }
    lastSweep = now;
    long forget = policy.forgetAfter().toMillis();
    addresses.values().removeIf(r -> r.forgettable(now, forget));
    ids.values().removeIf(r -> r.forgettable(now, forget));
    for (Iterator<Long> i = failedFor.values().iterator(); i.hasNext(); ) {
      if (now - i.next() >= forget) {
        i.remove();
      }
    }
  }

  private static ApiException tooMany(String text, long millis) {
    long s = seconds(millis);
    return new ApiException(
        ErrorCode.TOO_MANY_REQUESTS,
        text + "; try again in " + s + " s",
        Map.of("Retry-After", Long.toString(s)));
  }

  private static long seconds(long millis) {
    return Math.max(1, (millis + 999) / 1000);
  }

  /** The address as counted: IPv4 as is, IPv6 by its /64 network. */
  static String key(InetAddress address) {
    if (address == null) {
      return "unknown";
    }
    if (address instanceof Inet6Address) {
      byte[] b = Arrays.copyOf(address.getAddress(), 16);
      Arrays.fill(b, 8, 16, (byte) 0);
      try {
        return InetAddress.getByAddress(b).getHostAddress() + "/64";
      } catch (java.net.UnknownHostException e) {
        throw new IllegalStateException(e);
      }
    }
    return address.getHostAddress();
  }

  private static String text(InetAddress address) {
    return address == null ? "an unknown address" : key(address);
  }

  private static String pair(String id, String address) {
    return id + '\n' + address;
  }

  /** An id as logged and answered: its last 4 characters, as the API shows a key's suffix. */
  private static String suffix(String id) {
    String tail = id.substring(Math.max(0, id.length() - 4));
    StringBuilder b = new StringBuilder("ending in '");
    for (char c : tail.toCharArray()) {
      b.append(c >= 0x20 && c < 0x7f && c != '\'' ? c : '?');
    }
    return b.append('\'').toString();
  }
}
