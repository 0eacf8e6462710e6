package dev.agentloop.internal.agent;

import static dev.agentloop.internal.trace.step.StepKind.ACTION;
import static dev.agentloop.internal.trace.step.StepKind.FINAL_ANSWER;
import static dev.agentloop.internal.trace.step.StepKind.OBSERVATION;
import static dev.agentloop.internal.trace.step.StepKind.PLAN;
import static dev.agentloop.internal.trace.step.StepKind.THOUGHT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentloop.AgentLoopTest;
import dev.agentloop.Runs;
import dev.agentloop.TestAgent;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.api.RunStatus;
import dev.agentloop.api.RunView;
import dev.agentloop.internal.trace.Step;
import java.util.List;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.runtime.ProcessInstance;
import org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** The react-agent diagram driven by the scripted model through the embedded worker. */
@AgentLoopTest
class ReactAgentProcessTest {

  @Autowired ProcessEngine engine;
  @Autowired RunService runs;

  @BeforeEach
  void initAssertions() {
    BpmnAwareTests.init(engine);
  }

  @Test
  void should_answer_with_multi_step_tool_use() {
    // when
    ProcessInstance run = start("multi-step: What is 17 * 23 plus the days of a leap year?");
    RunView view = Runs.awaitStatus(runs, run.getId(), RunStatus.ANSWERED);

    // then
    BpmnAwareTests.assertThat(run).isEnded()
        .hasPassed(ReactAgentProcess.AGENT_LOOP, ReactAgentProcess.ANSWERED);
    assertThat(view.finalAnswer()).isEqualTo("757");
    assertThat(view.modelCalls()).isEqualTo(4);
    assertThat(view.toolCalls()).isEqualTo(2);
    List<Step> trace = runs.trace(run.getId(), false);
    assertThat(Runs.kinds(trace))
        .containsExactly(PLAN, THOUGHT, ACTION, OBSERVATION, THOUGHT, ACTION, OBSERVATION, FINAL_ANSWER);
    assertThat(trace.get(3).text("result")).isEqualTo("391");
    assertThat(trace.get(6).text("result")).isEqualTo("757");
    assertThat(BpmnAwareTests.historyService().createHistoricVariableInstanceQuery().processInstanceId(run.getId())
        .variableName(ReactAgentProcess.FINAL_ANSWER.name()).singleResult().getValue()).isEqualTo("757");
  }

  @Test
  void should_write_the_trace_as_a_chain_of_turns() {
    // when
    ProcessInstance run = start("multi-step: the trace tree");
    Runs.awaitStatus(runs, run.getId(), RunStatus.ANSWERED);

    // then every step hangs below the one before it, numbered in order, grouped into turns
    List<Step> trace = runs.trace(run.getId(), false);
    for (int i = 0; i < trace.size(); i++) {
      assertThat(trace.get(i).stepNo()).isEqualTo(i + 1);
      assertThat(trace.get(i).parentNo()).isEqualTo(i == 0 ? null : i);
      assertThat(trace.get(i).isActive()).isTrue();
    }
    assertThat(trace).extracting(Step::turn).containsExactly(0, 1, 1, 1, 2, 2, 2, 3);
    assertThat(trace).extracting(Step::author)
        .containsExactly("model", "model", "model", "calculator", "model", "model", "calculator", "model");
    assertThat(runs.trace(run.getId(), true)).isEqualTo(trace);
  }

  @Test
  void should_run_every_tool_call_of_a_turn_before_thinking_again() {
    ProcessInstance run = start("two-calls: 1+1 and 2+2");
    Runs.awaitStatus(runs, run.getId(), RunStatus.ANSWERED);

    List<Step> trace = runs.trace(run.getId(), false);
    assertThat(Runs.kinds(trace)).containsExactly(PLAN, THOUGHT, ACTION, ACTION, OBSERVATION, OBSERVATION, FINAL_ANSWER);
    assertThat(trace.get(4).text("result")).isEqualTo("2");
    assertThat(trace.get(5).text("result")).isEqualTo("4");
    assertThat(trace.get(4).text("callId")).isEqualTo(trace.get(2).text("callId"));
  }

  @Test
  void should_tell_the_model_about_a_tool_it_invented() {
    ProcessInstance run = start("unknown-tool: go to mars");
    RunView view = Runs.awaitStatus(runs, run.getId(), RunStatus.ANSWERED);

    Step observation = observation(run, 0);
    assertThat(observation.text("error")).contains("no tool named 'teleport'").contains("calculator");
    assertThat(observation.author()).isEqualTo("agentloop");
    assertThat(view.toolCalls()).isZero();
    // once seen null in a full build (not reproduced since): the message keeps the evidence
    assertThat(view.finalAnswer()).as("run %s, all steps: %s", view, runs.trace(run.getId(), true))
        .contains("cannot teleport");
  }

  @Test
  void should_tell_the_model_which_argument_breaks_the_schema_and_let_it_correct_itself() {
    ProcessInstance run = start("schema-violation: 1 + 1");
    RunView view = Runs.awaitStatus(runs, run.getId(), RunStatus.ANSWERED);

    assertThat(observation(run, 0).text("error")).contains("do not match its schema").contains("expression");
    assertThat(observation(run, 1).text("result")).isEqualTo("2");
    assertThat(view.finalAnswer()).isEqualTo("2");
  }

  @Test
  void should_keep_arguments_that_are_not_json_as_written_and_report_them() {
    ProcessInstance run = start("arguments-not-json: 1 + 1");
    Runs.awaitStatus(runs, run.getId(), RunStatus.ANSWERED);

    Step action = runs.trace(run.getId(), false).stream().filter(s -> s.kind() == ACTION).findFirst().orElseThrow();
    assertThat(action.text("rawArguments")).isEqualTo("{expression: 1 + 1");
    assertThat(observation(run, 0).text("error")).contains("must be a JSON object").contains("{expression: 1 + 1");
  }

  @Test
  void should_turn_a_tool_exception_into_an_error_observation() {
    ProcessInstance run = start("tool-throws: try it");
    RunView view = Runs.awaitStatus(runs, run.getId(), RunStatus.ANSWERED);

    assertThat(observation(run, 0).text("error")).contains("boom: this test tool always fails");
    assertThat(view.finalAnswer()).isEqualTo("The tool failed.");
  }

  @Test
  void should_give_up_on_a_hanging_tool_after_its_timeout() {
    ProcessInstance run = start("tool-hangs: try it");
    Runs.awaitStatus(runs, run.getId(), RunStatus.ANSWERED);

    assertThat(observation(run, 0).text("error")).contains("'hang' did not finish within 1 s");
  }

  @Test
  void should_tell_the_model_its_reply_was_empty() {
    ProcessInstance run = start("empty-reply: anything");
    RunView view = Runs.awaitStatus(runs, run.getId(), RunStatus.ANSWERED);

    List<Step> trace = runs.trace(run.getId(), false);
    assertThat(Runs.kinds(trace)).containsExactly(PLAN, THOUGHT, OBSERVATION, FINAL_ANSWER);
    assertThat(trace.get(2).text("error")).contains("your reply was empty");
    assertThat(view.modelCalls()).isEqualTo(3);
  }

  @Test
  void should_raise_an_incident_when_the_model_keeps_failing() {
    // when the model endpoint answers 500 on every attempt
    ProcessInstance run = start("model-down: anything");
    RunView view = Runs.awaitStatus(runs, run.getId(), RunStatus.FAILED);

    // then the retries ran out, the run waits in think with an incident, and nothing was written
    assertThat(view.incident()).contains("HTTP 500");
    BpmnAwareTests.assertThat(run).isActive().isWaitingAt(ReactAgentProcess.THINK);
    assertThat(Runs.kinds(runs.trace(run.getId(), false))).containsExactly(PLAN);
  }

  @Test
  void should_refuse_to_start_a_run_without_a_question() {
    assertThatThrownBy(() -> engine.getRuntimeService().startProcessInstanceByKey(TestAgent.KEY))
        .hasMessageContaining("needs a non-empty variable 'question'");
  }

  private ProcessInstance start(String question) {
    return engine.getRuntimeService().startProcessInstanceByKey(TestAgent.KEY, ReactAgentProcess.QUESTION.with(question));
  }

  private Step observation(ProcessInstance run, int index) {
    return runs.trace(run.getId(), false).stream().filter(s -> s.kind() == OBSERVATION).toList().get(index);
  }
}
