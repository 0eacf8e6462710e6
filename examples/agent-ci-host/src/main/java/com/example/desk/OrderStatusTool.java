package com.example.desk;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentloop.spi.AgentTool;
import java.util.Map;
import org.springframework.stereotype.Component;

/**
 * The order desk's tool: where an order stands, by its number. Read-only, so an evaluation of a changed agent may
 * call it live; it stands in for the shop's order system, which a team's CI reaches as its tests set it up.
 */
@Component
class OrderStatusTool implements AgentTool {

  private static final JsonNode PARAMETERS = schema();
  private static final Map<Integer, String> ORDERS = Map.of(
      42, "shipped on 27 November, arrives on 2 December",
      7, "packed, leaves the warehouse today");

  @Override
  public String name() {
    return "order_status";
  }

  @Override
  public String description() {
    return "Tells where an order stands, by its number.";
  }

  @Override
  public JsonNode parameters() {
    return PARAMETERS;
  }

  @Override
  public String execute(JsonNode arguments) {
    int order = arguments.path("order").asInt();
    return ORDERS.getOrDefault(order, "there is no order " + order);
  }

  private static JsonNode schema() {
    try {
      return new ObjectMapper().readTree("""
          {"type": "object", "properties": {"order": {"type": "integer"}}, "required": ["order"],
           "additionalProperties": false}""");
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
