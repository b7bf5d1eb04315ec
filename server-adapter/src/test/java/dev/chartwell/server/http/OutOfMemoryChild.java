package dev.chartwell.server.http;

/**
 * A child process for {@link OutOfMemoryTest}: serves one route that exhausts the heap, prints its
 * port, and waits.
 */
public final class OutOfMemoryChild {
  private OutOfMemoryChild() {}

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
                }));
    System.out.println("port " + api.port());
    System.out.flush();
    Thread.sleep(Long.MAX_VALUE);
  }
}
