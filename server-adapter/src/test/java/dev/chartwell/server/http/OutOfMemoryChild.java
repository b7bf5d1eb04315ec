package dev.chartwell.server.http;

/**
 * A child process for {@link OutOfMemoryTest}: serves one route that exhausts the heap, prints its
 * port, and waits.
 */
public final class OutOfMemoryChild {
  private OutOfMemoryChild() {}

  /** Keeps the chain reachable, so that the heap stays full after the error. */
  static volatile Object hoardSmall;

  /**
   * @param args unused
   * @throws Exception when the server cannot start
   */
  public static void main(String[] args) throws Exception {
    Thread.setDefaultUncaughtExceptionHandler(new FatalErrors(System.err));
    ApiServer api =
        ApiServer.bind("127.0.0.1", 0, ApiServer.Options.defaults(), new Json(), System.err);
    java.util.List<long[]> hoard = new java.util.ArrayList<>();
    api.start(
        new Router()
            .add(
                "GET",
                "/health",
                new Authenticator.None(),
                1024,
                req -> Response.json(200, java.util.Map.of("status", "ok")))
            .add(
                "GET",
                "/hoard",
                new Authenticator.None(),
                1024,
                req -> {
                  while (true) {
                    hoard.add(new long[1 << 20]);
                  }
                })
            .add(
                "GET",
                "/hoard-small",
                new Authenticator.None(),
                1024,
                req -> {
                  // A chain of small objects fills the heap to its last few bytes.
                  Object[] chain = null;
                  while (true) {
                    chain = new Object[] {chain, new long[4]};
                    hoardSmall = chain;
                  }
                }));
    System.out.println("port " + api.port());
    System.out.flush();
    Thread.sleep(Long.MAX_VALUE);
  }
}
