package dev.agentloop.internal.agent.definition;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Map;

/** Reads typed values from a diagram's properties; a value that does not parse names its property. */
record SettingValues(Map<String, String> properties) {

  String text(String name, String fallback) {
    String value = properties.get(name);
    return value == null || value.isBlank() ? fallback : value;
  }

  int count(String name, int fallback, int minimum) {
    String value = properties.get(name);
    if (value == null || value.isBlank()) {
      return fallback;
    }
    try {
      int parsed = Integer.parseInt(value.trim());
      if (parsed >= minimum) {
        return parsed;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new InvalidAgentSettingException(name, value, "a whole number of at least " + minimum);
  }

  long amount(String name, long fallback) {
    String value = properties.get(name);
    if (value == null || value.isBlank()) {
      return fallback;
    }
    try {
      long parsed = Long.parseLong(value.trim());
      if (parsed >= 0) {
        return parsed;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new InvalidAgentSettingException(name, value, "a whole number of at least 0 (0: no limit)");
  }

  boolean flag(String name, boolean fallback) {
    String value = properties.get(name);
    if (value == null || value.isBlank()) {
      return fallback;
    }
    return switch (value.trim().toLowerCase(Locale.ROOT)) {
      case "true" -> true;
      case "false" -> false;
      default -> throw new InvalidAgentSettingException(name, value, "true or false");
    };
  }

  RevisionsRunOut choice(String name, RevisionsRunOut fallback) {
    String value = properties.get(name);
    if (value == null || value.isBlank()) {
      return fallback;
    }
    try {
      return RevisionsRunOut.valueOf(value.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new InvalidAgentSettingException(name, value, "accept or reject");
    }
  }

  Duration duration(String name, Duration fallback) {
    String value = properties.get(name);
    if (value == null || value.isBlank()) {
      return fallback;
    }
    try {
      Duration parsed = Duration.parse(value.trim());
      if (!parsed.isNegative() && !parsed.isZero()) {
        return parsed;
      }
    } catch (DateTimeParseException e) {
      // reported below
    }
    throw new InvalidAgentSettingException(name, value, "a positive ISO-8601 duration such as PT30M");
  }

  /** An answer schema's text, read whole; {@code null} when the diagram sets none. */
  AnswerSchema answerSchema(String name) {
    String value = properties.get(name);
    if (value == null || value.isBlank()) {
      return null;
    }
    try {
      return AnswerSchema.parse(value.strip());
    } catch (IllegalArgumentException e) {
      String shown = value.strip().length() > 120 ? value.strip().substring(0, 120) + "…" : value.strip();
      throw new InvalidAgentSettingException(name, shown, "a JSON Schema of an object with properties (" + e.getMessage()
          + ")");
    }
  }
}
