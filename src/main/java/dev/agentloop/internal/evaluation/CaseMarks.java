package dev.agentloop.internal.evaluation;

import dev.agentloop.internal.agent.Steps;
import dev.agentloop.internal.tool.ToolOutcome;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.step.Action;
import dev.agentloop.internal.trace.step.Observation;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What the candidate's trace tells of its replay, in words: calls that were not recorded and ran or were refused,
 * calls of tools with side effects that did not run, and calls of tools the candidate does not offer. Calls answered from the record are no mark: they are the replay
 * doing what it should.
 */
final class CaseMarks {

  /** The failure of a call of a tool the candidate does not offer (gone from its tool list, or never there). */
  private static final String NOT_OFFERED = ToolOutcome.FailureKind.UNKNOWN_TOOL.name().toLowerCase(Locale.ROOT);

  private CaseMarks() {}

  static List<String> of(List<Step> candidatePath) {
    Map<String, Action> actions = new HashMap<>();
    List<String> marks = new ArrayList<>();
    for (Step step : candidatePath) {
      if (step.content() instanceof Action action) {
        actions.put(action.callId(), action);
      } else if (step.content() instanceof Observation observation && observation.ofCall()) {
        Action call = actions.get(observation.callId());
        String named = observation.tool() + (call == null ? "" : " " + call.argumentsText());
        if (ReplayedCalls.SIDE_EFFECT.equals(observation.failure())) {
          marks.add("side effect not run: " + named);
        } else if (ReplayedCalls.NOT_RECORDED.equals(observation.failure())) {
          marks.add("call not recorded, refused: " + named);
        } else if (NOT_OFFERED.equals(observation.failure())) {
          // e.g. a tool the recorded run called that the candidate's tool list no longer has: the model still asks
          marks.add("tool not offered to the candidate, not run: " + named + " (the model read: " + observation.error()
              + ")");
        } else if (step.author().equals(observation.tool()) && !step.author().equals(Steps.AGENTLOOP)) {
          marks.add("call not recorded, ran live: " + named);
        }
      }
    }
    return marks;
  }
}
