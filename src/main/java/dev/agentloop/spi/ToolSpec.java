package dev.agentloop.spi;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;

/**
 * A tool offered to the model: name, description and the JSON Schema of its arguments object, as
 * {@link ToolSchemas#forModel adapted} for the model; every adapter sends it, and the prompt view
 * shows it, as it is here.
 */
public record ToolSpec(String name, String description, JsonNode parameters) {

  public ToolSpec {
    Objects.requireNonNull(name, "name");
    parameters = ToolSchemas.forModel(name, parameters);
  }
}
