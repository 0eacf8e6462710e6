package dev.agentloop.internal.agent.loop;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a plan from a model's text: a JSON array of strings (also inside a code fence or prose),
 * or else one step per non-empty line with bullets and numbers removed.
 */
final class PlanParser {

  static final int MAX_STEPS = 20;
  static final int MAX_STEP_CHARS = 500;
  private static final ObjectMapper JSON = new ObjectMapper();

  private PlanParser() {}

  static List<String> parse(String text) {
    List<String> fromJson = jsonArray(text);
    List<String> steps = fromJson != null ? fromJson : lines(text);
    return steps.stream()
        .map(String::strip)
        .filter(s -> !s.isEmpty())
        .map(s -> s.length() > MAX_STEP_CHARS ? s.substring(0, MAX_STEP_CHARS) : s)
        .limit(MAX_STEPS)
        .toList();
  }

  private static List<String> jsonArray(String text) {
    int start = text.indexOf('[');
    int end = text.lastIndexOf(']');
    if (start < 0 || end <= start) {
      return null;
    }
    try {
      JsonNode array = JSON.readTree(text.substring(start, end + 1));
      List<String> steps = new ArrayList<>();
      for (JsonNode item : array) {
        if (!item.isTextual()) {
          return null;
        }
        steps.add(item.asText());
      }
      return steps;
    } catch (Exception e) {
      return null;
    }
  }

  private static List<String> lines(String text) {
    return text.lines().map(line -> line.replaceFirst("^\\s*(?:[-*•]|\\d+[.)])\\s*", "")).toList();
  }
}
