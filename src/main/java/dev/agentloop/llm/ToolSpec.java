package dev.agentloop.llm;

import com.fasterxml.jackson.databind.JsonNode;

/** A tool offered to the model: name, description and the JSON Schema of its arguments object. */
public record ToolSpec(String name, String description, JsonNode parameters) {}
