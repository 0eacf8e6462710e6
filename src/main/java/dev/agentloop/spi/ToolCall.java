package dev.agentloop.spi;

/**
 * A tool call as the model wrote it. The arguments stay raw text: a model can write anything,
 * and the agent decides what to do with arguments that are not a JSON object.
 */
public record ToolCall(String id, String name, String arguments) {

  public ToolCall {
    id = id == null ? "" : id;
    name = name == null ? "" : name;
    arguments = arguments == null ? "" : arguments;
  }
}
