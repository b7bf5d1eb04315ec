package dev.chartwell.server.catalog;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/**
 * The engine's progress lines name its sources by id; users know them as tables. Read before the
 * engine opens (the catalog opens after it), these names are added to the lines.
 */
public final class TableNames {
  private TableNames() {}

  /**
   * The names users know the engine's sources by, read before the engine opens so that its progress
   * lines can use them.
   *
   * @param dataDir the data directory
   * @param mapper JSON codec
   * @return each table's id (its engine source's id) to {@code database.table}
   * @throws IOException when the tables cannot be read
   */
  public static Map<String, String> read(Path dataDir, ObjectMapper mapper) throws IOException {
    try (Tables tables = Tables.open(dataDir, mapper)) {
      return tables.names();
    }
  }

  private static final java.util.regex.Pattern ENGINE_ID =
      java.util.regex.Pattern.compile("\\b[0-9a-f]{24}\\b");

  /**
   * @param line an engine progress line
   * @param names {@link #read}
   * @return the line with each table id it names followed by the table's name
   */
  public static String addTo(String line, Map<String, String> names) {
    return ENGINE_ID
        .matcher(line)
        .replaceAll(
            m -> {
              String name = names.get(m.group());
              return name == null ? m.group() : m.group() + " (table " + name + ")";
            });
  }
}
