package dev.agentloop.internal.tool.builtin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** Parses the JSON Schemas the built-in tools declare as text blocks. */
final class Schemas {

  private static final ObjectMapper JSON = new ObjectMapper();

  private Schemas() {}

  static JsonNode parse(String schema) {
    try {
      return JSON.readTree(schema);
    } catch (Exception e) {
      throw new IllegalStateException("built-in tool schema is not JSON", e);
    }
  }
}
