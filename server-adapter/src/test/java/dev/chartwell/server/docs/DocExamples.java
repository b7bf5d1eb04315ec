package dev.chartwell.server.docs;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Sorts the fenced blocks of a document into what the docs test does with each; a block that fits
 * no kind is a failure naming its file and line, so that no example goes unchecked.
 */
final class DocExamples {
  private DocExamples() {}

  /** What the test does with a block. */
  enum Kind {
    /** A {@code bash} block: run in the document's shell. */
    RUN,
    /** A {@code bash} block starting the server: started with its flags (see DocServer). */
    SERVE,
    /**
     * A {@code bash} block starting the server on an address other than loopback: its flags are
     * parsed as the server parses them; it is not started (tests bind only loopback).
     */
    FLAGS,
    /** A {@code json} or {@code text} block right after a command: compared with its output. */
    OUTPUT,
    /** A {@code json} block that is no output: a request body or document, parsed. */
    BODY,
    /**
     * A {@code java} block that is code the build compiles and runs: a snippet of java-api.md
     * ({@code <!-- snippet: NAME -->}, held to its source by the engine's JavaApiSnippetsTest), or
     * lines of a test or example named by {@code <!-- compiled in: PATH -->} (checked here).
     */
    JAVA,
    /**
     * A block after {@code *Not run by the docs test: <reason>.*}, or the output shown of such a
     * command: syntax-checked if it can be.
     */
    NOT_RUN
  }

  /** A block and its kind, or why it has none. */
  record Example(DocBlock block, Kind kind, String problem) {}

  private static final Set<String> SHELL = Set.of("bash", "sh");

  /** {@code <!-- compiled in: PATH -->}: the java block's lines are lines of that source file. */
  static final Pattern COMPILED_IN = Pattern.compile("<!-- compiled in: (\\S+) -->");

  private static final Pattern JAR =
      Pattern.compile("^(?:[A-Z_]+=\\S+\\s+)*java\\s+-jar\\s+\\S*chartwell-server\\.jar\\b(.*)$");
  private static final Pattern SUBCOMMAND =
      Pattern.compile("^\\s*(?:[a-z]\\S*|.*--help|.*--version)");

  static List<Example> classify(List<DocBlock> blocks) {
    List<Example> out = new ArrayList<>();
    Kind lastCommand = null;
    for (DocBlock b : blocks) {
      Example e = classify(b, lastCommand);
      if (lastCommand == Kind.NOT_RUN
          && e.kind != Kind.RUN
          && Set.of("json", "text").contains(b.language())) {
        e = new Example(b, Kind.NOT_RUN, null); // the output of a command not run: parsed if JSON
      }
      out.add(e);
      if (e.kind == Kind.RUN
          || e.kind == Kind.SERVE
          || e.kind == Kind.FLAGS
          || (e.kind == Kind.NOT_RUN && SHELL.contains(b.language()))) {
        lastCommand = e.kind;
      } else if (e.kind != Kind.OUTPUT) {
        lastCommand = null;
      }
    }
    return out;
  }

  private static Example classify(DocBlock b, Kind lastCommand) {
    if (b.notRun() != null) {
      return new Example(b, Kind.NOT_RUN, null);
    }
    switch (b.language()) {
      case "bash", "sh" -> {
        List<String> commands = commands(b.text());
        long starts = commands.stream().filter(DocExamples::isServerStart).count();
        if (starts == 0) {
          return new Example(b, Kind.RUN, null);
        }
        if (starts == 1 && commands.size() == 1) {
          return new Example(
              b, exposed(flags(commands.get(0)).flags()) ? Kind.FLAGS : Kind.SERVE, null);
        }
        return new Example(
            b,
            null,
            "a server start must be a block of its own, one command (for the test to run it)");
      }
      case "json" -> {
        return new Example(b, lastCommand != null ? Kind.OUTPUT : Kind.BODY, null);
      }
      case "text" -> {
        return lastCommand != null
            ? new Example(b, Kind.OUTPUT, null)
            : new Example(
                b,
                null,
                "a text block must follow the command whose output it shows; otherwise say why it"
                    + " is not run (*Not run by the docs test: <reason>.*)");
      }
      case "java" -> {
        boolean snippet =
            b.before().contains("<!-- snippet: ")
                && b.file().getFileName().toString().equals("java-api.md");
        return snippet || COMPILED_IN.matcher(b.before()).find()
            ? new Example(b, Kind.JAVA, null)
            : new Example(
                b,
                null,
                "a java block must be code of a compiled test or example (<!-- compiled in: FILE -->"
                    + " before it, or <!-- snippet: NAME --> in java-api.md), or say why not");
      }
      default -> {
        return new Example(
            b,
            null,
            (b.language().isEmpty() ? "a block without a language" : "a " + b.language() + " block")
                + ": give it bash (run), json or text (output or body), or put"
                + " *Not run by the docs test: <reason>.* above it");
      }
    }
  }

  /** The flags of a server start and the variables its command line sets. */
  record Start(java.util.Map<String, String> env, List<String> flags) {}

  static Start flags(String command) {
    List<String> words = words(command);
    java.util.Map<String, String> env = new java.util.LinkedHashMap<>();
    int jar = 0;
    for (; !words.get(jar).equals("java"); jar++) {
      String[] kv = words.get(jar).split("=", 2);
      env.put(kv[0], kv[1]);
    }
    List<String> flags = words.subList(jar + 3, words.size());
    boolean background = !flags.isEmpty() && flags.get(flags.size() - 1).equals("&");
    return new Start(env, background ? flags.subList(0, flags.size() - 1) : flags);
  }

  /** A start on an address other than loopback. */
  static boolean exposed(List<String> flags) {
    for (int i = 0; i < flags.size(); i++) {
      String f = flags.get(i);
      String host =
          f.startsWith("--host=") ? f.substring(7) : f.equals("--host") ? flags.get(i + 1) : null;
      if (host != null && !host.equals("127.0.0.1") && !host.equals("localhost")) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether a command starts the server: the jar without a command, --help or --version, and not
   * part of a pipe, list or redirection (those run in the shell); it may be put in the background
   * ({@code &}), as the test starts it anyway.
   */
  static boolean isServerStart(String command) {
    var m = JAR.matcher(command);
    return m.matches()
        && !SUBCOMMAND.matcher(m.group(1)).lookingAt()
        && !m.group(1).replaceFirst("\\s&\\s*$", "").matches(".*[|;&<>].*");
  }

  /**
   * The commands of a shell block: continuation lines joined, comments and blank lines left out.
   */
  static List<String> commands(String text) {
    List<String> out = new ArrayList<>();
    StringBuilder cur = new StringBuilder();
    for (String line : text.split("\n")) {
      if (cur.isEmpty() && (line.isBlank() || line.strip().startsWith("#"))) {
        continue;
      }
      if (line.endsWith("\\")) {
        cur.append(line, 0, line.length() - 1).append(' ');
      } else {
        out.add(cur.append(line).toString().strip());
        cur.setLength(0);
      }
    }
    if (!cur.isEmpty()) {
      out.add(cur.toString().strip());
    }
    return out;
  }

  /** The words of a command line, with '...' and "..." quoting (no expansion). */
  static List<String> words(String command) {
    List<String> out = new ArrayList<>();
    StringBuilder w = null;
    char quote = 0;
    for (char c : command.toCharArray()) {
      if (quote != 0) {
        if (c == quote) {
          quote = 0;
        } else {
          w.append(c);
        }
      } else if (c == '\'' || c == '"') {
        quote = c;
        w = w == null ? new StringBuilder() : w;
      } else if (Character.isWhitespace(c)) {
        if (w != null) {
          out.add(w.toString());
          w = null;
        }
      } else {
        w = w == null ? new StringBuilder() : w;
        w.append(c);
      }
    }
    if (w != null) {
      out.add(w.toString());
    }
    return out;
  }
}
