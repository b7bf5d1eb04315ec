package dev.chartwell.server.docs;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One fenced code block of a Markdown document: its language (the first word of the info string),
 * its text, the line of its opening fence, the prose between the previous block and this one, and
 * the reason given by a {@code *Not run by the docs test: <reason>.*} line in that prose, if any.
 */
record DocBlock(Path file, int line, String info, String text, String before, String notRun) {
  static final Pattern NOT_RUN = Pattern.compile("\\*Not run by the docs test: ([^*]+?)\\.?\\*");

  /** The first word of the info string: the block's language, or "" without one. */
  String language() {
    return info.isEmpty() ? "" : info.split("\\s+")[0];
  }

  /** Whether the info string has this word after the language ({@code ```bash errors}). */
  boolean has(String word) {
    return java.util.Arrays.asList(info.split("\\s+")).indexOf(word) > 0;
  }

  /** {@code file:line}, as a failure names the block. */
  String where() {
    return DocsLinksTest.ROOT.relativize(file.toAbsolutePath().normalize()) + ":" + line;
  }

  /** The fenced blocks of a document, in order. */
  static List<DocBlock> of(Path file, String markdown) {
    List<DocBlock> out = new ArrayList<>();
    String[] lines = markdown.split("\n", -1);
    StringBuilder prose = new StringBuilder();
    for (int i = 0; i < lines.length; i++) {
      String fence = lines[i].strip();
      if (!fence.startsWith("```")) {
        prose.append(lines[i]).append('\n');
        continue;
      }
      String info = fence.substring(3).strip();
      int indent = lines[i].indexOf('`');
      StringBuilder text = new StringBuilder();
      int open = i;
      for (i++; i < lines.length && !lines[i].strip().equals("```"); i++) {
        String l = lines[i];
        text.append(
                l.length() >= indent && l.substring(0, indent).isBlank() ? l.substring(indent) : l)
            .append('\n');
      }
      Matcher m = NOT_RUN.matcher(prose);
      String reason = m.find() ? m.group(1) : null;
      out.add(new DocBlock(file, open + 1, info, text.toString(), prose.toString(), reason));
      prose.setLength(0);
    }
    return out;
  }
}
