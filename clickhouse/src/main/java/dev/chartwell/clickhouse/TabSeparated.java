package dev.chartwell.clickhouse;

import java.util.ArrayList;
import java.util.List;

/** Reads ClickHouse's {@code TabSeparated} output: rows of tab-separated, escaped cells. */
final class TabSeparated {
  private TabSeparated() {}

  /**
   * @param body the answer
   * @return its rows, each a list of raw (still escaped) cells
   */
  static List<String[]> rows(String body) {
    List<String[]> out = new ArrayList<>();
    int from = 0;
    while (from < body.length()) {
      int nl = body.indexOf('\n', from);
      if (nl < 0) {
        nl = body.length();
      }
      out.add(body.substring(from, nl).split("\t", -1));
      from = nl + 1;
    }
    return out;
  }

  /**
   * @param cell an escaped cell
   * @return its value, or {@code null} for {@code \N}
   */
  static String unescape(String cell) {
    if (cell.equals("\\N")) {
      return null;
    }
    if (cell.indexOf('\\') < 0) {
      return cell;
    }
    StringBuilder sb = new StringBuilder(cell.length());
    for (int i = 0; i < cell.length(); i++) {
      char c = cell.charAt(i);
      if (c != '\\' || i + 1 >= cell.length()) {
        sb.append(c);
        continue;
      }
      char n = cell.charAt(++i);
      switch (n) {
        case 'n' -> sb.append('\n');
        case 't' -> sb.append('\t');
        case 'r' -> sb.append('\r');
        case 'b' -> sb.append('\b');
        case 'f' -> sb.append('\f');
        case '0' -> sb.append('\0');
        case 'a' -> sb.append('\u0007');
        case 'v' -> sb.append('\u000b');
        case 'x' -> {
          if (i + 2 < cell.length()) {
            sb.append((char) Integer.parseInt(cell.substring(i + 1, i + 3), 16));
            i += 2;
          } else {
            sb.append('x');
          }
        }
        default -> sb.append(n);
      }
    }
    return sb.toString();
  }

  /**
   * @param cell a Float64 cell as ClickHouse writes it
   * @return its value
   */
  static double number(String cell) {
    return switch (cell) {
      case "nan", "-nan" -> Double.NaN;
      case "inf", "+inf" -> Double.POSITIVE_INFINITY;
      case "-inf" -> Double.NEGATIVE_INFINITY;
      default -> Double.parseDouble(cell);
    };
  }
}
