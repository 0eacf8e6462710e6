package dev.agentloop.internal.mcp;

import dev.agentloop.api.ConversationTurn;
import dev.agentloop.api.RunStatus;
import dev.agentloop.api.RunView;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A tool call's result from how its run came out: the answer as text (and its fields as structured content), a run
 * that ended without one as an error in words, a run still going as its id and how to fetch its answer later. The
 * result's {@code _meta} names the run ({@code agentloop/runId}) either way.
 */
final class McpAnswers {

  static final String RUN_META = "agentloop/runId";

  private final String apiBasePath;

  McpAnswers(String apiBasePath) {
    this.apiBasePath = apiBasePath;
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
    List<ConversationTurn> turns = run.turns();
    String answer = turns.isEmpty() || turns.get(turns.size() - 1).answer() == null ? run.finalAnswer()
        : turns.get(turns.size() - 1).answer();
    CallToolResult.Builder result = CallToolResult.builder().meta(meta(run))
        .addTextContent(answer == null ? "" : answer);
    Object fields = structuredContent(run);
    if (fields != null) {
      result.structuredContent(fields);
    }
    return result.build();
  }

  /**
   * The answer's fields as MCP's {@code structuredContent}: the run view's {@code answerData} once agents declare an
   * answer schema (structured answers), so that a client gets them as data beside the text; {@code null} until then.
   */
  static Object structuredContent(RunView run) {
    return null;
  }

  /** The call's time ran out before the run answered: it goes on, and the client can fetch the answer later. */
  private CallToolResult unfinished(RunView run) {
    String waiting = run.waitingFor().isEmpty() ? "it is working" : "it waits for " + String.join(", ",
        run.waitingFor());
    return CallToolResult.builder().meta(meta(run))
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
