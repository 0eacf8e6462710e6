package com.example.orders;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentloop.spi.AgentTool;
import java.util.stream.Collectors;
import org.camunda.bpm.engine.RuntimeService;
import org.camunda.bpm.engine.TaskService;
import org.springframework.context.annotation.Lazy;
import org.springframework.stereotype.Component;

/**
 * The team's own tool for its agents: where the open orders of an item stand. A Spring bean implementing
 * {@link AgentTool} is all it takes; the application's {@code agentloop.agent.allowed-tools} lets the default
 * agent call it.
 */
@Component
class OrderStatusTool implements AgentTool {

  private static final JsonNode PARAMETERS = schema();

  private final RuntimeService runtime;
  private final TaskService tasks;

  /**
   * Camunda's services come lazily: AgentLoop checks agents against the registered tools while the engine
   * deploys them, so a tool must exist before the engine does.
   */
  OrderStatusTool(@Lazy RuntimeService runtime, @Lazy TaskService tasks) {
    this.runtime = runtime;
    this.tasks = tasks;
  }

  @Override
  public String name() {
    return "order_status";
  }

  @Override
  public String description() {
    return "Tells where the open orders of an item stand, by the item's name.";
  }

  @Override
  public JsonNode parameters() {
    return PARAMETERS;
  }

  @Override
  public String execute(JsonNode arguments) {
    String item = arguments.get("item").asText();
    String open = runtime.createProcessInstanceQuery().processDefinitionKey(OrderController.PROCESS)
        .variableValueEquals("item", item).list().stream()
        .map(order -> "order " + order.getId() + " waits at "
            + tasks.createTaskQuery().processInstanceId(order.getId()).list().stream()
                .map(task -> task.getName()).collect(Collectors.joining(", ")))
        .collect(Collectors.joining("; "));
    return open.isEmpty() ? "no open order for '" + item + "'" : open;
  }

  private static JsonNode schema() {
    try {
      return new ObjectMapper().readTree("""
          {"type": "object", "properties": {"item": {"type": "string"}}, "required": ["item"],
           "additionalProperties": false}""");
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
