package dev.chartwell.server.docs;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;

/**
 * The syntax checks of blocks that cannot run here: JSON, YAML and TOML parse with Jackson, XML
 * with the JDK's parser (a fragment of several elements is read inside one), INI (Fluent Bit's
 * classic format, systemd units) line by line. Languages without a checker here (nginx, Logstash's
 * Ruby-like syntax, Alloy, Kotlin, Dockerfile) are only named by {@link #checked}.
 */
final class ConfigSyntax {
  private ConfigSyntax() {}

  private static final Pattern INI_LINE =
      Pattern.compile("\\s*(|[#;].*|\\[[^\\]]+]|[A-Za-z_][\\w.-]*\\s*(=\\s*.*|\\s+\\S.*))");

  /** Whether the test has a syntax checker for this language. */
  static boolean checked(String language) {
    return switch (language) {
      case "json", "yaml", "yml", "toml", "xml", "ini" -> true;
      default -> false;
    };
  }

  /**
   * @return null when the text parses as the language (or nothing checks it), else the error
   */
  static String check(String language, String text) {
    try {
      switch (language) {
        case "json" -> new ObjectMapper().readTree(text);
        case "yaml", "yml" -> new YAMLMapper().readTree(text);
        case "toml" -> new TomlMapper().readTree(text);
        case "xml" -> {
          String doc =
              text.strip().startsWith("<?xml") ? text : "<fragment>" + text + "</fragment>";
          DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
          f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
          f.newDocumentBuilder()
              .parse(new ByteArrayInputStream(doc.getBytes(StandardCharsets.UTF_8)));
        }
        case "ini" -> {
          for (String line : text.split("\n")) {
            if (!INI_LINE.matcher(line).matches()) {
              return "not a section, comment or key and value: '" + line + "'";
            }
          }
        }
        default -> {
          // no checker for this language here
        }
      }
      return null;
    } catch (Exception e) {
      return e.getMessage();
    }
  }
}
