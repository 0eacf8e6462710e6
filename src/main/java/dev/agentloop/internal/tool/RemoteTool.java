package dev.agentloop.internal.tool;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentloop.spi.AgentTool;
import java.util.Objects;

/**
 * A tool that runs outside this application, on a remote worker that serves its external-task
 * topic over the engine REST API. Declared by configuration ({@code agentloop.tools.remote.<name>}),
 * it is registered like any tool: the model sees its name, description and schema, its arguments are
 * checked against the schema before a call leaves, and it needs approval like a local tool with the
 * same {@code sideEffects}. Only its execution is elsewhere: {@link #execute} refuses to run here.
 * Immutable.
 */
public record RemoteTool(String name, String description, JsonNode parameters, boolean sideEffects)
    implements AgentTool {

  private static final ObjectMapper JSON = new ObjectMapper();

  public RemoteTool {
    Objects.requireNonNull(name, "name");
    if (description == null || description.isBlank()) {
      throw new IllegalArgumentException("remote tool '" + name + "': description must not be blank; the model"
          + " decides from it when to call the tool");
    }
    Objects.requireNonNull(parameters, "parameters");
  }

  /**
   * A remote tool whose parameters are given as JSON Schema text, as in the configuration.
   *
   * @throws IllegalArgumentException naming the tool when the text is no JSON
   */
  public static RemoteTool of(String name, String description, String parametersJson, boolean sideEffects) {
    JsonNode parameters;
    try {
      parameters = JSON.readTree(parametersJson == null ? "" : parametersJson);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("remote tool '" + name + "': parameters must be a JSON Schema as JSON text: "
          + e.getOriginalMessage(), e);
    }
    return new RemoteTool(name, description, parameters, sideEffects);
  }

  /** Never runs here: the agent hands its calls to remote workers. */
  @Override
  public String execute(JsonNode arguments) {
    throw new UnsupportedOperationException("'" + name + "' runs on remote workers, not in this application");
  }
}
