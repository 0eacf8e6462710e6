package dev.agentloop.internal.mcp;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentloop.api.ConversationTurn;
import dev.agentloop.api.RunStatus;
import dev.agentloop.api.RunView;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * A tool call's result from how its run came out: the answer as text (and its fields as structured content), a run
 * that ended without one as an error in words, a run still going as its id and how to fetch its answer later. The
 * result's {@code _meta} names the run ({@code agentloop/runId}) either way. A tool with an output schema (an agent
 * that answers in fields) owes its fields with every result that is no error (MCP's rule, which the SDK enforces):
 * its run still going is therefore an error result, with the same words and run id.
 */
final class McpAnswers {

  static final String RUN_META = "agentloop/runId";
  private static final ObjectMapper JSON = new ObjectMapper();

  private final String apiBasePath;
  private final Predicate<String> answersInFields;

  /** @param answersInFields whether the agent of this key answers in fields (its tool has an output schema) */
  McpAnswers(String apiBasePath, Predicate<String> answersInFields) {
    this.apiBasePath = apiBasePath;
    this.answersInFields = answersInFields;
  }

  CallToolResult of(AgentCall.Outcome outcome, RunView run) {
    if (outcome == AgentCall.Outcome.TURN_ANSWERED || run.status() == RunStatus.ANSWERED) {
      return answered(run);
    }
    if (run.status().isFinished()) {
      return CallToolResult.builder().isError(true).meta(meta(run))
          .addTextContent("The run " + run.id() + " of agent '" + run.agent() + "' ended " + run.status()
              + (run.statusReason() == null ? "" : ": " + run.statusReason()) + ", without an answer.")
          .build();
    }
    return unfinished(run);
  }

  private CallToolResult answered(RunView run) {
    ConversationTurn turn = lastAnswered(run);
    String answer = turn == null ? run.finalAnswer() : turn.answer();
    CallToolResult.Builder result = CallToolResult.builder().meta(meta(run))
        .addTextContent(answer == null ? "" : answer);
    Object fields = structuredContent(run);
    if (fields != null) {
      result.structuredContent(fields);
    }
    return result.build();
  }

  /**
   * The answer's fields as MCP's {@code structuredContent}, so that a client gets them as data beside the text: those
   * of the last turn's answer, else the run's {@code answerData}; {@code null} for an answer in text.
   */
  static Object structuredContent(RunView run) {
    ConversationTurn turn = lastAnswered(run);
    JsonNode fields = turn == null ? run.answerData() : turn.answerData();
    return fields == null || !fields.isObject() ? null
        : JSON.convertValue(fields, new TypeReference<Map<String, Object>>() { });
  }

  private static ConversationTurn lastAnswered(RunView run) {
    List<ConversationTurn> turns = run.turns();
    return turns.isEmpty() || turns.get(turns.size() - 1).answer() == null ? null : turns.get(turns.size() - 1);
  }

  /** The call's time ran out before the run answered: it goes on, and the client can fetch the answer later. */
  private CallToolResult unfinished(RunView run) {
    String waiting = run.waitingFor().isEmpty() ? "it is working" : "it waits for " + String.join(", ",
        run.waitingFor());
    return CallToolResult.builder().meta(meta(run)).isError(answersInFields.test(run.agent()))
        .addTextContent("The run " + run.id() + " of agent '" + run.agent() + "' has not answered yet (" + waiting
            + "); it goes on. Fetch its answer later: read the MCP resource " + McpRunResources.uri(run.id())
            + ", or GET " + apiBasePath + "/runs/" + run.id() + " (finalAnswer once status is ANSWERED), or follow it"
            + " at GET " + apiBasePath + "/runs/" + run.id() + "/events.")
        .build();
  }

  private static Map<String, Object> meta(RunView run) {
    Map<String, Object> meta = new LinkedHashMap<>();
    meta.put(RUN_META, run.id());
    meta.put("agentloop/status", run.status().name());
    return meta;
  }
}
