package dev.agentloop.internal.agent.loop;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.TestTools;
import dev.agentloop.api.RunStatus;
import dev.agentloop.internal.agent.Steps;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.agent.definition.AnswerSettings;
import dev.agentloop.internal.agent.definition.ConversationSettings;
import dev.agentloop.internal.agent.definition.PromptSettings;
import dev.agentloop.internal.agent.definition.ReviewSettings;
import dev.agentloop.internal.agent.definition.RevisionsRunOut;
import dev.agentloop.internal.resilience.EscapeLimits;
import dev.agentloop.internal.tool.RemoteTool;
import dev.agentloop.internal.tool.ToolRegistry;
import dev.agentloop.internal.trace.NewStep;
import dev.agentloop.internal.trace.RunHead;
import dev.agentloop.internal.trace.RunRecord;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.step.Action;
import dev.agentloop.internal.trace.step.Approval;
import dev.agentloop.internal.trace.step.Observation;
import dev.agentloop.internal.trace.step.StepKind;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Which calls of a turn go to remote workers, and with which arguments. */
class RemoteToolTasksTest {

  private static final String RUN_ID = "run-1";
  private static final Instant TIME = Instant.parse("2025-01-01T00:00:00Z");

  private final ToolRegistry tools = new ToolRegistry(List.of(
      TestTools.tool("calculator", false, arguments -> "4"),
      RemoteTool.of("crm_lookup", "Looks a customer up", """
          {"type": "object", "properties": {"customerId": {"type": "string"}}, "required": ["customerId"]}""", false),
      RemoteTool.of("crm_update", "Changes a customer", "{\"type\": \"object\"}", true)));
  private final RemoteToolTasks remoteCalls = new RemoteToolTasks(null, null, null, tools);

  @Test
  void should_send_the_valid_calls_of_allowed_remote_tools_in_the_order_the_model_made_them() {
    // given a turn with a local call, two good remote calls, one that breaks the schema and one of a tool not allowed
    Action local = action("a", "calculator", "{\"expression\": \"2 + 2\"}");
    Action first = action("b", "crm_lookup", "{\"customerId\": \"C-1\"}");
    Action broken = action("c", "crm_lookup", "{\"id\": 1}");
    Action second = action("d", "crm_lookup", "{\"customerId\": \"C-2\"}");
    Action notAllowed = action("e", "crm_update", "{}");
    LoopState state = state(Steps.thought("go"), Steps.action(local), Steps.action(first), Steps.action(broken),
        Steps.action(second), Steps.action(notAllowed));

    // when
    List<Action> pending = remoteCalls.pending(state, settings("calculator", "crm_lookup"));

    // then
    assertThat(pending).containsExactly(first, second);
  }

  @Test
  void should_send_nothing_observed_already() {
    Action first = action("b", "crm_lookup", "{\"customerId\": \"C-1\"}");
    Action second = action("d", "crm_lookup", "{\"customerId\": \"C-2\"}");
    LoopState state = state(Steps.thought("go"), Steps.action(first), Steps.action(second),
        Steps.observation(Observation.result(first, "C-1: Ada"), "crm_lookup"));

    assertThat(remoteCalls.pending(state, settings("*"))).containsExactly(second);
  }

  @Test
  void should_send_a_call_as_a_person_edited_it_and_never_a_rejected_one() {
    // given two calls of a remote tool with side effects, one edited, one rejected by a person
    Action edited = action("a", "crm_update", "{\"tier\": \"gold\"}");
    Action rejected = action("b", "crm_update", "{\"tier\": \"platinum\"}");
    JsonNode silver = TestTools.parse("{\"tier\": \"silver\"}");
    LoopState state = state(Steps.thought("upgrade"), Steps.action(edited), Steps.action(rejected),
        Steps.approvals(List.of(new Approval("a", Approval.Decision.EDIT, silver, null, "rita"),
            new Approval("b", Approval.Decision.REJECT, null, "too generous", "rita")), "decided", "rita"));

    // when
    List<Action> pending = remoteCalls.pending(state, settings("*"));

    // then
    assertThat(pending).extracting(Action::callId).containsExactly("a");
    assertThat(pending.get(0).arguments()).isEqualTo(silver);
  }

  private static Action action(String callId, String tool, String arguments) {
    return new Action(callId, tool, TestTools.parse(arguments), null);
  }

  private static AgentSettings settings(String... allowedTools) {
    return new AgentSettings(new PromptSettings("system", "planner", 20, 50, 10_000, 0), Set.of(allowedTools),
        new ReviewSettings(true, true, 2, RevisionsRunOut.ACCEPT, Duration.ofHours(1)),
        EscapeLimits.NONE.withMaxSteps(10), ConversationSettings.ONE_SHOT, AnswerSettings.TEXT);
  }

  /** The steps numbered like the store does, with a new turn at each THOUGHT. */
  private static LoopState state(NewStep... newSteps) {
    List<Step> steps = new ArrayList<>();
    int turn = 0;
    for (NewStep step : newSteps) {
      turn += step.kind() == StepKind.THOUGHT ? 1 : 0;
      int no = steps.size() + 1;
      steps.add(step.at(RUN_ID, no, no == 1 ? null : no - 1, turn, TIME));
    }
    Step head = steps.get(steps.size() - 1);
    RunRecord run = new RunRecord(RUN_ID, "agent", "question", RunStatus.RUNNING, null,
        new RunHead(RUN_ID, steps.size(), head.stepNo(), head.turn(), steps.size()), 0, 0, 0, TIME, null, null);
    return new LoopState(run, null, steps, false);
  }
}
