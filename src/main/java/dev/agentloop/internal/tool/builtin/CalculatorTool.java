package dev.agentloop.internal.tool.builtin;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.spi.AgentTool;
import dev.agentloop.spi.ToolException;

/** Exact decimal arithmetic, so the model never has to do sums in its head. */
public class CalculatorTool implements AgentTool {

  private static final JsonNode PARAMETERS = Schemas.parse("""
      {"type": "object",
       "properties": {"expression": {"type": "string", "minLength": 1, "maxLength": 500,
                      "description": "e.g. (17 * 23) + 366; supports + - * / % ^, parentheses, sqrt(), abs()"}},
       "required": ["expression"], "additionalProperties": false}
      """);

  @Override
  public String name() {
    return "calculator";
  }

  @Override
  public String description() {
    return "Evaluates an arithmetic expression exactly and returns the number.";
  }

  @Override
  public JsonNode parameters() {
    return PARAMETERS;
  }

  @Override
  public String execute(JsonNode arguments) throws ToolException {
    return ArithmeticParser.evaluate(arguments.get("expression").asText()).stripTrailingZeros().toPlainString();
  }
}
