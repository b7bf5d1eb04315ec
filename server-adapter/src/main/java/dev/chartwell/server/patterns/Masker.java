package dev.chartwell.server.patterns;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Replaces the variable parts of a line of text by typed placeholders, one pass left to right:
 * quoted values ({@code <QUOTED>}), UUIDs ({@code <UUID>}), e-mail addresses ({@code <EMAIL>}),
 * URLs ({@code <URL>}), IPv4 addresses with an optional port ({@code <IP>}), hex numbers of at
 * least 8 digits holding a letter and a digit or with a {@code 0x} prefix ({@code <HEX>}), numbers
 * with a time unit ({@code <DURATION>}) or a byte unit ({@code <SIZE>}), and other numbers ({@code
 * <NUM>}). A variable part is only taken whole: the characters around it are not letters, digits,
 * {@code _}, {@code <} or {@code >}, so {@code db-12} becomes {@code db-<NUM>} but {@code v2} and
 * {@code ab12} stay. Masking a masked line changes nothing.
 */
public final class Masker {
  /** Every placeholder the masker writes. */
  public static final List<String> PLACEHOLDERS =
      List.of(
          "<QUOTED>",
          "<UUID>",
          "<EMAIL>",
          "<URL>",
          "<IP>",
          "<HEX>",
          "<DURATION>",
          "<SIZE>",
          "<NUM>");

  private static final String B = "(?<![A-Za-z0-9_<>])";
  private static final String E = "(?![A-Za-z0-9_<>])";
  private static final String NUM = "\\d+(?:\\.\\d+)?";
  private static final Pattern VARIABLE =
      Pattern.compile(
          B
              + "(?:"
              + "(?<QUOTED>\"[^\"\\n]{0,256}\"|'[^'\\n]{0,256}')"
              + "|(?<UUID>[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
              + E
              + ")"
              + "|(?<EMAIL>[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\\.[A-Za-z0-9-]{1,63})+"
              + E
              + ")"
              + "|(?<URL>[a-zA-Z][a-zA-Z0-9+.-]{0,15}://[^\\s\"'<>]+)"
              + "|(?<IP>\\d{1,3}(?:\\.\\d{1,3}){3}(?::\\d{1,5})?"
              + E
              + ")"
              + "|(?<HEX>(?:0x[0-9a-fA-F]+|(?=[0-9a-fA-F]*[a-fA-F])(?=[0-9a-fA-F]*[0-9])"
              + "[0-9a-fA-F]{8,})"
              + E
              + ")"
              + "|(?<DURATION>"
              + NUM
              + "(?:ns|us|µs|ms|s|m|h|d)"
              + E
              + ")"
              + "|(?<SIZE>"
              + NUM
              + "(?:[KMGTP]i?B|B)"
              + E
              + ")"
              + "|(?<NUM>"
              + NUM
              + E
              + ")"
              + ")");

  private static final String[] GROUPS = {
    "QUOTED", "UUID", "EMAIL", "URL", "IP", "HEX", "DURATION", "SIZE", "NUM"
  };

  private Masker() {}

  /**
   * @param line a line of text
   * @return the line with each variable part replaced by its placeholder
   */
  public static String mask(String line) {
    Matcher m = VARIABLE.matcher(line);
    if (!m.find()) {
      return line;
    }
    StringBuilder out = new StringBuilder(line.length());
    int last = 0;
    do {
      out.append(line, last, m.start());
      for (String g : GROUPS) {
        if (m.start(g) >= 0) {
          out.append('<').append(g).append('>');
          break;
        }
      }
      last = m.end();
    } while (m.find());
    return out.append(line, last, line.length()).toString();
  }

  /**
   * @param token a token of a masked line
   * @return whether it is one of the {@link #PLACEHOLDERS}
   */
  public static boolean isPlaceholder(String token) {
    return token.length() > 2
        && token.charAt(0) == '<'
        && token.charAt(token.length() - 1) == '>'
        && PLACEHOLDERS.contains(token);
  }
}
