package dev.chartwell.server.shippers;

import dev.chartwell.server.http.ApiException;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The table an Elasticsearch index name writes to. Shippers name an index per day or month and roll
 * indices over, so the dated and numbered tails are dropped and one table holds them all:
 *
 * <ol>
 *   <li>a data stream's backing-index prefix {@code .ds-} is dropped;
 *   <li>a date at the end, after {@code -} or {@code .} ({@code 2026.11.28}, {@code 2026-11-28},
 *       {@code 2026.11}, {@code 2026-11}, {@code 20261128}), is dropped, then a rollover number
 *       ({@code -000001});
 *   <li>the rest is lower-cased and each character other than {@code a-z}, {@code 0-9} and {@code
 *       _} becomes {@code _}.
 * </ol>
 *
 * <p>So {@code logs-app-2026.11.28}, {@code logs-app-2026.11.29} and {@code logs-app} all write to
 * {@code logs_app}; {@code filebeat-8.17.0-2026.11.28-000001} to {@code filebeat_8_17_0}.
 */
final class IndexNames {
  private static final Pattern DATE =
      Pattern.compile("[-.](\\d{4}[.-]\\d{2}([.-]\\d{2})?|\\d{8})$");
  private static final Pattern ROLLOVER = Pattern.compile("-\\d{6}$");
  private static final int MAX_LENGTH = 255;

  private IndexNames() {}

  /**
   * @param index an index or data stream name, as the request gives it
   * @return the table name
   * @throws ApiException 400 when the name is empty, too long, or nothing of it is left
   */
  static String table(String index) {
    if (index.isEmpty() || index.length() > MAX_LENGTH) {
      throw ApiException.badRequest(
          "index name must have 1 to " + MAX_LENGTH + " characters, got " + index.length());
    }
    String s = index.startsWith(".ds-") ? index.substring(4) : index;
    s = ROLLOVER.matcher(s).replaceFirst("");
    s = DATE.matcher(s).replaceFirst("");
    s = ROLLOVER.matcher(s).replaceFirst("");
    StringBuilder out = new StringBuilder(s.length());
    for (char c : s.toLowerCase(Locale.ROOT).toCharArray()) {
      out.append((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ? c : '_');
    }
    if (out.isEmpty() || out.chars().allMatch(c -> c == '_')) {
      throw ApiException.badRequest(
          "index name '" + index + "' leaves no table name (letters or digits are needed)");
    }
    return out.toString();
  }
}
