package dev.agentloop.internal.security;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.security.WorkerRestPolicy.Decision;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/**
 * What a member of {@code agent-workers} may ask of {@code /external-task/fetchAndLock}: tasks of tool topics only,
 * fetching no variables but a tool call's; and a body the engine would not fail on with a 500 rather than refuse.
 * The part of {@link WorkerRestPolicy} that reads the request alone, without the engine. Thread-safe (stateless).
 */
final class FetchAndLockPolicy {

  private static final Set<String> FETCHABLE = Set.of(ReactAgentProcess.CALL_ID.name(),
      ReactAgentProcess.TOOL.name(), ReactAgentProcess.ARGUMENTS.name());

  private FetchAndLockPolicy() {}

  /** @param request the body, a JSON object */
  static Decision check(JsonNode request) {
    JsonNode topics = request.path("topics");
    if (!topics.isArray() || topics.isEmpty()) {
      return Decision.refused("fetchAndLock must name its topics");
    }
    for (JsonNode topic : topics) {
      String name = topic.path("topicName").asText("");
      if (!WorkerRestPolicy.isToolTopic(name)) {
        return Decision.refused("topic '" + name + "' is not a tool topic (" + WorkerRestPolicy.PREFIX + "<tool>)");
      }
      JsonNode variables = topic.path("variables");
      if (!variables.isArray()) {
        return Decision.refused("topic '" + name + "': name the variables to fetch, among "
            + WorkerRestPolicy.sorted(FETCHABLE) + " (without a list the engine would send every variable of the run)");
      }
      for (JsonNode variable : variables) {
        if (!FETCHABLE.contains(variable.asText())) {
          return Decision.refused("topic '" + name + "': variable '" + variable.asText() + "' is not one of a tool"
              + " call's " + WorkerRestPolicy.sorted(FETCHABLE));
        }
      }
    }
    JsonNode workerId = request.get("workerId");
    if (workerId == null || !workerId.isTextual() || workerId.asText().isBlank()) {
      return malformed("workerId must be the worker's id, a string");
    }
    for (JsonNode topic : topics) {
      Decision wellFormed = checkTopicFilters(topic.path("topicName").asText(""), topic);
      if (!wellFormed.allowed()) {
        return wellFormed;
      }
    }
    return Decision.ALLOWED;
  }

  /**
   * What the engine would fail on with a 500 rather than refuse: a topic without a positive
   * {@code lockDuration}, and a {@code processVariables} filter whose values are not plain values.
   */
  private static Decision checkTopicFilters(String name, JsonNode topic) {
    JsonNode lockDuration = topic.get("lockDuration");
    if (lockDuration == null || !lockDuration.canConvertToLong() || !lockDuration.isIntegralNumber()
        || lockDuration.asLong() <= 0) {
      return malformed("topic '" + name + "': lockDuration must be a positive number of milliseconds");
    }
    JsonNode filter = topic.get("processVariables");
    if (filter == null || filter.isNull()) {
      return Decision.ALLOWED;
    }
    if (!filter.isObject()) {
      return malformed("topic '" + name + "': processVariables must be a JSON object of variable names and values");
    }
    for (Iterator<Map.Entry<String, JsonNode>> entries = filter.fields(); entries.hasNext(); ) {
      Map.Entry<String, JsonNode> entry = entries.next();
      if (entry.getValue().isContainerNode()) {
        return malformed("topic '" + name + "': processVariables." + entry.getKey()
            + " must be a string, number or boolean, not " + (entry.getValue().isArray() ? "an array" : "an object"));
      }
    }
    return Decision.ALLOWED;
  }

  private static Decision malformed(String why) {
    return new Decision("fetchAndLock: " + why, true);
  }
}
