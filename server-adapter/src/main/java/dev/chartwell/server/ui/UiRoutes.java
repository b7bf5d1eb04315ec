package dev.chartwell.server.ui;

import dev.chartwell.server.http.ApiException;
import dev.chartwell.server.http.Authenticator;
import dev.chartwell.server.http.Request;
import dev.chartwell.server.http.Response;
import dev.chartwell.server.http.Router;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Serves the web UI's static files from the class path ({@code ui/} in the jar). A file is read
 * once and kept with its ETag (a hash of its bytes); a request whose {@code If-None-Match} holds
 * that tag is answered {@code 304 Not Modified} without a body. Only names of letters, digits,
 * {@code .}, {@code -} and {@code _} that do not start with a dot are looked up, so that no path
 * can leave the {@code ui/} folder (Jetty already refuses {@code ..} and encoded separators). Every
 * answer carries the {@link SecurityHeaders}: a strict content security policy, no framing, no
 * referrer, no sniffing, and HSTS over TLS.
 */
public final class UiRoutes {
  /** The class-path folder of the UI's files. */
  static final String ROOT = "ui/";

  /** The page every UI path answers with. */
  static final String INDEX = "index.html";

  /** The UI's page paths, answered with {@link #INDEX} so that they can be bookmarked. */
  static final List<String> PAGES =
      List.of(
          "/",
          "/dashboards",
          "/dashboards/{serviceId}",
          "/dashboards/{serviceId}/{dashboardId}",
          "/explore",
          "/explore/{serviceId}",
          "/explore/{serviceId}/{sourceId}",
          "/traces/{serviceId}/{sourceId}/{traceId}");

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}");
  private static final Map<String, String> TYPES =
      Map.of(
          "html", "text/html; charset=utf-8",
          "js", "text/javascript; charset=utf-8",
          "css", "text/css; charset=utf-8",
          "svg", "image/svg+xml",
          "png", "image/png",
          "ico", "image/x-icon",
          "txt", "text/plain; charset=utf-8",
          "md", "text/markdown; charset=utf-8");

  private final ClassLoader loader;
  private final String root;
  private final Map<String, Asset> cache = new ConcurrentHashMap<>();

  /** A file with its media type and ETag. */
  private record Asset(String contentType, byte[] bytes, String etag) {}

  /**
   * @param loader where the files are read from
   * @param root the class-path folder, ending with {@code /}
   */
  UiRoutes(ClassLoader loader, String root) {
    this.loader = loader;
    this.root = root;
  }

  /**
   * Adds the UI's routes: its pages, {@code /ui/{name}} and {@code /ui/vendor/{name}}.
   *
   * @param router where to add them
   * @param maxBodyBytes the body limit (GET routes read no body)
   */
  public static void register(Router router, long maxBodyBytes) {
    new UiRoutes(UiRoutes.class.getClassLoader(), ROOT).addTo(router, maxBodyBytes);
  }

  void addTo(Router router, long maxBodyBytes) {
    Authenticator none = new Authenticator.None();
    for (String page : PAGES) {
      router.add("GET", page, none, maxBodyBytes, req -> serve(req, INDEX));
    }
    router.add("GET", "/ui/{name}", none, maxBodyBytes, req -> serve(req, req.pathParam("name")));
    router.add(
        "GET",
        "/ui/vendor/{name}",
        none,
        maxBodyBytes,
        req -> serve(req, "vendor/" + req.pathParam("name")));
  }

  private Response serve(Request req, String name) {
    for (String part : name.split("/", -1)) {
      if (!NAME.matcher(part).matches()) {
        throw ApiException.notFound("no such file: " + req.path());
      }
    }
    Asset a = cache.computeIfAbsent(name, n -> load(n).orElse(null));
    if (a == null) { // not kept: names that miss cannot fill the cache
      throw ApiException.notFound("no such file: " + req.path());
    }
    boolean fresh = req.header("If-None-Match").map(h -> matches(h, a.etag())).orElse(false);
    Response r =
        fresh
            ? Response.bytes(304, a.contentType(), new byte[0])
            : Response.bytes(200, a.contentType(), a.bytes());
    // Revalidated on every use: a new jar's files are seen at once, an unchanged file costs a 304.
    r = r.withHeader("ETag", a.etag()).withHeader("Cache-Control", "no-cache");
    for (Map.Entry<String, String> h : SecurityHeaders.forUi(req.secure(), req.host()).entrySet()) {
      r = r.withHeader(h.getKey(), h.getValue());
    }
    return r;
  }

  /** Weak comparison (RFC 9110 §13.1.2): {@code W/} is ignored, {@code *} matches. */
  static boolean matches(String ifNoneMatch, String etag) {
    String bare = etag.startsWith("W/") ? etag.substring(2) : etag;
    for (String t : ifNoneMatch.split(",")) {
      String tag = t.strip();
      if (tag.equals("*")) {
        return true;
      }
      if (tag.startsWith("W/")) {
        tag = tag.substring(2);
      }
      if (tag.equals(bare)) {
        return true;
      }
    }
    return false;
  }

  private Optional<Asset> load(String name) {
    try (InputStream in = loader.getResourceAsStream(root + name)) {
      if (in == null) {
        return Optional.empty();
      }
      byte[] bytes = in.readAllBytes();
      int dot = name.lastIndexOf('.');
      String ext = dot < 0 ? "" : name.substring(dot + 1).toLowerCase(Locale.ROOT);
      String type = TYPES.getOrDefault(ext, "application/octet-stream");
      // Weak: the server may send the same file gzip-encoded or not, under the same tag.
      String tag =
          "W/\""
              + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes), 0, 12)
              + "\"";
      return Optional.of(new Asset(type, bytes, tag));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the UI file " + name, e);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JDK", e);
    }
  }
}
