package dev.agentloop.internal.tool.builtin;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.spi.AgentTool;
import dev.agentloop.spi.ToolException;

/**
 * Lets the model ask a person. The process answers it: a call of this tool routes the run to the
 * user task {@code askHuman}, whose answers become the observation. It is never executed as a tool.
 */
public class AskHumanTool implements AgentTool {

  public static final String NAME = "ask_human";

  /** As many answer fields as the askHuman form has. */
  public static final int MAX_QUESTIONS = 5;

  private static final JsonNode PARAMETERS = Schemas.parse("""
      {"type": "object",
       "properties": {"questions": {"type": "array", "minItems": 1, "maxItems": %d,
                      "items": {"type": "string", "minLength": 1, "maxLength": 2000},
                      "description": "what you need to know from a person, one question per entry"}},
       "required": ["questions"], "additionalProperties": false}
      """.formatted(MAX_QUESTIONS));

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "Asks a person one or more questions and returns their answers. Use it for information only a"
        + " person has, or to confirm an assumption. Call it on its own, not together with other tools.";
  }

  @Override
  public JsonNode parameters() {
    return PARAMETERS;
  }

  @Override
  public String execute(JsonNode arguments) throws ToolException {
    throw new ToolException("ask_human must be the only tool call of a turn; call it again on its own");
  }
}
