package dev.agentloop.internal.agent.definition;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentloop.spi.AgentTool;
import dev.agentloop.spi.ToolException;
import java.util.Objects;

/**
 * Another agent, offered to the model as a tool named after its process key, with one argument, {@code question}.
 * A call never runs here: the diagram's {@code callAgent} activity starts the agent as a child run, and the child's
 * answer or outcome becomes the call's observation ({@link ChildRuns}). Immutable.
 *
 * @param answerSchema the schema of the agent's answer where it answers in fields, for callers that take them as
 *     data (an MCP tool's output schema); {@code null}: it answers in text
 */
public record AgentAsTool(String name, String description, AnswerSchema answerSchema) implements AgentTool {

  public static final String QUESTION = "question";
  private static final JsonNode PARAMETERS = questionSchema();

  public AgentAsTool {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(description, "description");
  }

  /** An agent that answers in text. */
  public AgentAsTool(String name, String description) {
    this(name, description, null);
  }

  @Override
  public JsonNode parameters() {
    return PARAMETERS;
  }

  /** Reached only where the agent was not offered this agent by name (a {@code *} offers no agents). */
  @Override
  public String execute(JsonNode arguments) throws ToolException {
    throw new ToolException("'" + name + "' is an agent: an agent calls it only when its allowedTools name it");
  }

  private static JsonNode questionSchema() {
    ObjectNode schema = new ObjectMapper().createObjectNode().put("type", "object");
    schema.putObject("properties").putObject(QUESTION).put("type", "string").put("minLength", 1)
        .put("description", "The question for the agent, with everything it needs to answer it: it sees nothing"
            + " else of this conversation");
    schema.putArray("required").add(QUESTION);
    schema.put("additionalProperties", false);
    return schema;
  }
}
