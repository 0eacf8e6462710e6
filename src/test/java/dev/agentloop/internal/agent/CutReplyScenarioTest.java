package dev.agentloop.internal.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentloop.AgentLoopTest;
import dev.agentloop.Runs;
import dev.agentloop.TestAgent;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.api.RunStatus;
import dev.agentloop.api.RunView;
import dev.agentloop.internal.resilience.Escapes;
import dev.agentloop.api.AgentLoopGroups;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.step.StepKind;
import java.util.List;
import java.util.Map;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.task.Task;
import org.camunda.bpm.engine.variable.Variables;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Replies cut at the output limit, driven by the scripted model through the embedded worker: each cut
 * leaves the loop for a person with the limit named, however often it happens, and is never read as
 * an agent going round in circles; a cut call never runs.
 */
@AgentLoopTest
class CutReplyScenarioTest {

  @Autowired ProcessEngine engine;
  @Autowired RunService runs;

  @Test
  void should_escape_with_the_limit_named_at_every_cut_and_answer_once_a_reply_is_whole() {
    // given a model whose first two replies are cut: an answer, then a call mid-arguments
    String run = runs.start(TestAgent.KEY, "cut-reply: what is 3 + 4?");

    // when it is cut the first time
    Task first = Runs.awaitTask(engine, run, ReactAgentProcess.AGENT_STUCK);

    // then the run waits for a person, told which limit was hit
    assertEscapedForTheLimit(run);
    // and when guided, the next (cut) reply escapes the same way, not as a loop
    guide(first, "Answer in one short sentence.");
    Task second = Runs.awaitTask(engine, run, ReactAgentProcess.AGENT_STUCK);
    assertEscapedForTheLimit(run);
    assertThat(runs.view(run).modelCalls()).as("the plan and one call per cut, no retry into the same limit")
        .isEqualTo(3);
    assertThat(Runs.kinds(runs.trace(run, false))).as("the cut call was never an action, so it never ran")
        .doesNotContain(StepKind.ACTION);
    assertThat(runs.view(run).toolCalls()).isZero();
    // and once a reply is whole, it is the answer
    guide(second, "Answer without tools.");
    RunView answered = Runs.awaitStatus(runs, run, RunStatus.ANSWERED);
    assertThat(answered.finalAnswer()).isEqualTo("The answer is 7.");
    List<Step> trace = runs.trace(run, false);
    assertThat(trace.get(trace.size() - 1).text("stopReason")).isEqualTo("stop");
    assertThat(trace.stream().filter(s -> s.kind() == StepKind.THOUGHT).map(s -> s.text("stopReason")))
        .containsExactly("length", "length");
  }

  private void assertEscapedForTheLimit(String run) {
    assertThat(engine.getRuntimeService().getVariable(run, ReactAgentProcess.ESCAPE_CODE.name()))
        .isEqualTo(Escapes.BUDGET_EXHAUSTED);
    assertThat((String) engine.getRuntimeService().getVariable(run, ReactAgentProcess.ESCAPE_REASON.name()))
        .startsWith("The model's reply hit its output limit (the script's stopReason 'length'): this is the scripted"
            + " model: change the script's reply, or ask for shorter replies in the agent's systemPrompt.");
  }

  private void guide(Task stuck, String note) {
    engine.getIdentityService().setAuthentication("ann", List.of(AgentLoopGroups.REVIEWERS));
    try {
      engine.getFormService().submitTaskForm(stuck.getId(),
          Variables.fromMap(Map.of("decision", "guide", "note", note)));
    } finally {
      engine.getIdentityService().clearAuthentication();
    }
  }
}
