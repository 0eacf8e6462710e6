package dev.agentloop.internal.resilience;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.step.StepKind;
import dev.agentloop.internal.trace.step.Action;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** What every chaotic run must be, whatever came: no call repeated past the loop limits, a whole path. */
final class ChaosChecks {

  private ChaosChecks() {}

  /**
   * No call run more often than the loop limit lets through: three times warned, the fourth gets a turn
   * for the final answer or escapes. Calls refused unrun (on a final-answer turn) do not count.
   */
  static void assertNoLoop(String id, List<Step> path) {
    Map<String, Integer> calls = new HashMap<>();
    Set<String> refused = new HashSet<>();
    path.stream().filter(step -> step.kind() == StepKind.OBSERVATION && "not_offered".equals(step.text("failure")))
        .forEach(step -> refused.add(step.text("callId")));
    path.stream().filter(step -> step.kind() == StepKind.ACTION).map(step -> step.contentAs(Action.class))
        .filter(action -> !refused.contains(action.callId()))
        .forEach(action -> calls.merge(CallSignature.of(action.tool(), action.arguments(), action.rawArguments(), true),
            1, Integer::sum));
    assertThat(calls.values()).as("calls of %s", id).allSatisfy(count -> assertThat(count).isLessThanOrEqualTo(4));
  }

  /** One chain of steps, every call with exactly one observation, an answer at the end of answered runs. */
  static void assertWhole(String id, List<Step> path, boolean answered) {
    for (int i = 0; i < path.size(); i++) {
      assertThat(path.get(i).parentNo()).as("parent of step %d of %s", i + 1, id).isEqualTo(i == 0 ? null : i);
    }
    List<String> calls = path.stream().filter(s -> s.kind() == StepKind.ACTION).map(s -> s.text("callId")).toList();
    List<String> observed = path.stream().filter(s -> s.kind() == StepKind.OBSERVATION).map(s -> s.text("callId"))
        .toList();
    assertThat(new HashSet<>(calls)).as("call ids of %s", id).hasSameSizeAs(calls);
    assertThat(observed).as("observations of %s", id).containsExactlyInAnyOrderElementsOf(calls);
    assertThat(path.get(path.size() - 1).kind() == StepKind.FINAL_ANSWER).as("answer of %s", id).isEqualTo(answered);
  }
}
