package dev.agentloop.internal.config;

import com.fasterxml.jackson.databind.JsonNode;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The generated part of {@code docs/configuration.md}: every {@code agentloop.*} key of the configuration metadata
 * (what the configuration processor wrote from the settings records' javadoc) with its type, default and
 * description, one table per top-level group. The page's hand-written prose stays outside the markers.
 */
final class ConfigurationPage {

  static final String BEGIN = "<!-- BEGIN generated from META-INF/spring-configuration-metadata.json by"
      + " ConfigurationPageTest: edit the settings records' javadoc, not this table -->";
  static final String END = "<!-- END generated -->";

  private static final Pattern INLINE_TAG = Pattern.compile("\\{@(code|literal|link|linkplain|value)\\s+([^}]*)}");

  private ConfigurationPage() {}

  /** The markdown between the markers (the markers excluded), for the metadata's properties. */
  static String keys(JsonNode metadata) {
    Map<String, List<JsonNode>> sections = new TreeMap<>();
    for (JsonNode property : metadata.get("properties")) {
      String name = property.get("name").asText();
      String[] parts = name.split("\\.");
      String section = parts.length <= 2 ? "agentloop" : parts[0] + "." + parts[1];
      sections.computeIfAbsent(section, s -> new ArrayList<>()).add(property);
    }
    StringBuilder page = new StringBuilder();
    sections.forEach((section, properties) -> {
      page.append("\n### `").append(section).append("`\n\n");
      page.append("| Key | Type | Default | Description |\n|---|---|---|---|\n");
      properties.stream().sorted((a, b) -> a.get("name").asText().compareTo(b.get("name").asText()))
          .forEach(property -> page.append("| `").append(property.get("name").asText()).append("` | ")
              .append(type(property.get("type").asText())).append(" | ")
              .append(defaultValue(property)).append(" | ")
              .append(cell(text(property.path("description").asText(""), property.path("sourceType").asText(""))))
              .append(" |\n"));
    });
    return page.append('\n').toString();
  }

  /** The page with its generated part replaced; the markers must be there once each, in order. */
  static String replaced(String page, String keys) {
    int begin = page.indexOf(BEGIN);
    int end = page.indexOf(END);
    if (begin < 0 || end < begin || page.indexOf(BEGIN, begin + 1) >= 0) {
      throw new IllegalStateException("the page needs the line " + BEGIN + " once, before the line " + END);
    }
    return page.substring(0, begin + BEGIN.length()) + "\n" + keys + page.substring(end);
  }

  private static String type(String type) {
    return switch (type) {
      case "java.lang.Integer", "java.lang.Long" -> "integer";
      case "java.lang.Double" -> "number";
      case "java.lang.Boolean" -> "boolean";
      case "java.lang.String" -> "text";
      case "java.time.Duration" -> "duration";
      case "java.util.List<java.lang.String>" -> "list of text";
      default -> {
        if (type.startsWith("java.util.Map<java.lang.String,")) {
          String value = type.substring("java.util.Map<java.lang.String,".length(), type.length() - 1);
          yield "map: name → " + (value.equals("java.lang.Boolean") ? "boolean" : simpleName(value));
        }
        yield enumValues(type);
      }
    };
  }

  /** An enum's values as a key takes them (kebab-case, lower case), else the type's simple name. */
  private static String enumValues(String type) {
    try {
      Class<?> cls = Class.forName(type);
      if (cls.isEnum()) {
        return Arrays.stream(cls.getEnumConstants())
            .map(constant -> "`" + ((Enum<?>) constant).name().toLowerCase(Locale.ROOT).replace('_', '-') + "`")
            .collect(Collectors.joining(" \\| "));
      }
    } catch (ClassNotFoundException e) {
      // a type the test cannot load is shown by its name
    }
    return simpleName(type);
  }

  private static String simpleName(String type) {
    return type.substring(Math.max(type.lastIndexOf('.'), type.lastIndexOf('$')) + 1);
  }

  private static String defaultValue(JsonNode property) {
    JsonNode value = property.get("defaultValue");
    if (value == null || value.isNull()) {
      return "none";
    }
    if (value.isArray()) {
      List<String> values = new ArrayList<>();
      value.forEach(element -> values.add(element.asText()));
      return values.isEmpty() ? "none" : "`" + String.join(", ", values) + "`";
    }
    String text = value.asText();
    if (text.equals("[]") || text.isEmpty()) {
      return "none";
    }
    if (text.startsWith("[") && text.endsWith("]")) {
      return "`" + text.substring(1, text.length() - 1) + "`";
    }
    // the prompts: pages long, shown where they are kept
    return text.length() > 60 ? "see `agentloop-defaults.yaml`" : "`" + text + "`";
  }

  /** Javadoc's inline tags as markdown: code as code, a constant as its value where it can be read. */
  private static String text(String javadoc, String sourceType) {
    Matcher tag = INLINE_TAG.matcher(javadoc);
    StringBuilder text = new StringBuilder();
    while (tag.find()) {
      String content = tag.group(2).trim();
      String shown = switch (tag.group(1)) {
        case "value" -> constant(content, sourceType);
        case "link", "linkplain" -> content.contains(" ") ? content.substring(content.indexOf(' ') + 1)
            : simpleName(content.replace('#', '.'));
        default -> content;
      };
      tag.appendReplacement(text, Matcher.quoteReplacement("`" + shown + "`"));
    }
    tag.appendTail(text);
    return text.toString();
  }

  /** {@code {@value Type#NAME}}: the constant's value, read from the type in the settings record's package. */
  private static String constant(String reference, String sourceType) {
    int hash = reference.indexOf('#');
    if (hash > 0) {
      String type = reference.substring(0, hash);
      String pkg = sourceType.contains(".") ? sourceType.substring(0, sourceType.lastIndexOf('.')) : "";
      for (String candidate : List.of(type, pkg + "." + type)) {
        try {
          Field field = Class.forName(candidate).getDeclaredField(reference.substring(hash + 1));
          if (Modifier.isStatic(field.getModifiers())) {
            field.setAccessible(true);
            return String.valueOf(field.get(null));
          }
        } catch (ReflectiveOperationException | RuntimeException e) {
          // try the next reading; the reference itself is shown when none works
        }
      }
    }
    return reference;
  }

  private static String cell(String text) {
    return text.replace("\r", "").replace("\n", " ").replace("|", "\\|").replaceAll("\\s{2,}", " ").trim();
  }
}
