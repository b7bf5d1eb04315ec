package dev.chartwell.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The version of this build and the commit it was built from, as the build recorded them in {@code
 * version.properties}: {@code unknown} for what it could not learn (a build outside a git checkout,
 * or classes run without the build's resources).
 *
 * @param version the release, such as {@code 0.3.0} or {@code 0.3.0-SNAPSHOT}
 * @param commit the abbreviated commit id, or {@code unknown}
 */
public record Version(String version, String commit) {
  private static final Version CURRENT = load();

  /**
   * @return this build's version
   */
  public static Version current() {
    return CURRENT;
  }

  /**
   * @return {@code chartwell <version> (commit <commit>)}, what {@code --version} prints
   */
  public String line() {
    return "chartwell " + version + " (commit " + commit + ")";
  }

  private static Version load() {
    Properties p = new Properties();
    try (InputStream in = Version.class.getResourceAsStream("version.properties")) {
      if (in != null) {
        p.load(in);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read version.properties", e);
    }
    return new Version(known(p.getProperty("version")), known(p.getProperty("commit")));
  }

  /** A property the build did not fill in is left as its {@code ${...}} placeholder. */
  static String known(String value) {
    return value == null || value.isBlank() || value.contains("${") ? "unknown" : value.trim();
  }
}
