package dev.agentloop.internal.llm.scripted;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentloop.Runs;
import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.demo.DemoApplication;
import dev.agentloop.internal.resume.ResumeService;
import dev.agentloop.internal.resume.StepEdit;
import dev.agentloop.api.AgentLoopGroups;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.step.StepKind;
import dev.agentloop.internal.trace.StepStore;
import dev.agentloop.internal.trace.step.Action;
import dev.agentloop.internal.trace.step.Observation;
import dev.agentloop.internal.trace.step.Thought;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.task.Task;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;

/**
 * The demo's scripted model reacts to what people change, so the headline features show in the
 * demo: an edited calculator result or policy document changes the answer, a failed call is said to
 * have failed; a follow-up is answered from the earlier turn. The demo script (scripts/demo-script.json)
 * with plans accepted and answers reviewed, and conversations on, as the demo has them.
 */
@SpringBootTest(classes = DemoApplication.class, properties = {
    "agentloop.agent.auto-accept-plan=true", "agentloop.agent.auto-accept-answer=false",
    "agentloop.agent.conversation=true",
    "agentloop.llm.scripted.script=classpath:scripts/demo-script.json",
    "camunda.bpm.process-engine-name=demoScriptScenarios"})
@ActiveProfiles("test")
class DemoScriptScenarioTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String LEAP_YEAR = "What is 17 * 23 plus the number of days in a leap year?";

  @Autowired RunService runs;
  @Autowired StepStore store;
  @Autowired ResumeService resume;
  @Autowired ProcessEngine engine;

  @Test
  void should_answer_from_an_edited_calculator_result() throws Exception {
    String run = runs.start(ReactAgentProcess.KEY, LEAP_YEAR);
    awaitAnswers(run, 1);
    assertThat(answer(run)).isEqualTo("17 * 23 is 391; a leap year has 366 days; together that is 757.");

    // when a person says that 17 * 23 came out as 400
    edit(run, observation(run, 1), "{\"result\": \"400\"}", "the calculator was wrong");

    // then the model adds 400, and its answer says so
    awaitAnswers(run, 2);
    assertThat(answer(run)).isEqualTo("17 * 23 is 400; a leap year has 366 days; together that is 766.");
    assertThat(store.activePath(run)).filteredOn(step -> step.kind() == StepKind.ACTION)
        .extracting(step -> ((Action) step.content()).arguments().path("expression").asText())
        .containsExactly("17 * 23", "400 + 366");
  }

  @Test
  void should_say_that_it_could_not_add_when_the_addition_failed() throws Exception {
    String run = runs.start(ReactAgentProcess.KEY, LEAP_YEAR);
    awaitAnswers(run, 1);

    edit(run, observation(run, 2), "{\"error\": \"refused by the reviewer\"}", "do not add yet");

    awaitAnswers(run, 2);
    assertThat(answer(run)).isEqualTo(
        "17 * 23 is 391; a leap year has 366 days, but I could not add them: ERROR: refused by the reviewer");
  }

  @Test
  void should_answer_the_leave_question_from_the_policy_text_a_person_corrected() throws Exception {
    String run = runs.start(ReactAgentProcess.KEY, "How many days may I work remotely from abroad?");
    awaitAnswers(run, 1);
    assertThat(answer(run)).contains("28 days of paid leave", "up to 20 working days per year");

    Step read = observation(run, 2);
    String corrected = ((Observation) read.content()).result()
        .replace("up to 20 working days", "up to 30 working days");
    assertThat(corrected).contains("30 working days");
    edit(run, read, JSON.createObjectNode().put("result", corrected).toString(), "the policy changed in May");

    awaitAnswers(run, 2);
    assertThat(answer(run)).contains("up to 30 working days per year").doesNotContain("20 working days");
  }

  @Test
  void should_answer_a_follow_up_from_the_numbers_of_the_earlier_turn() throws Exception {
    // given the leap-year answer, whose 17 * 23 a person corrected to 400 before accepting it
    String run = runs.start(ReactAgentProcess.KEY, LEAP_YEAR);
    awaitAnswers(run, 1);
    edit(run, observation(run, 1), "{\"result\": \"400\"}", "the calculator was wrong");
    awaitAnswers(run, 2);

    // when the reviewer accepts it and asks the follow-up in the same form
    review(run, Map.of("decision", "follow_up", "followUpQuestion", "And in a normal year?"));

    // then the model takes 17 * 23 from the earlier turn (the corrected 400) and adds a normal year's days
    awaitAnswers(run, 3);
    assertThat(answer(run)).isEqualTo("In a normal year: 17 * 23 is 400 (from my earlier calculation), plus 365 days"
        + " makes 765; with the 366 days of a leap year it was 766.");
    assertThat(store.activePath(run)).filteredOn(step -> step.kind() == StepKind.ACTION)
        .extracting(step -> ((Action) step.content()).arguments().path("expression").asText())
        .containsExactly("17 * 23", "400 + 366", "400 + 365");
    assertThat(store.activePath(run)).filteredOn(step -> step.kind() == StepKind.THOUGHT).last()
        .satisfies(step -> assertThat(((Thought) step.content()).text())
            .startsWith("My earlier answer was: \"17 * 23 is 400; a leap year has 366 days; together that is 766.\""));

    // and after it a follow-up on the leave policy quotes the answer before it, the one about the normal year
    review(run, Map.of("decision", "follow_up", "followUpQuestion", "And how many days can be carried over?"));
    awaitAnswers(run, 4);
    assertThat(answer(run)).startsWith("Going by the leave policy from my previous answer (\"In a normal year:");
    assertThat(runs.view(run).turns()).hasSize(3);
  }

  /** Submits the run's open answer review as a reviewer in Tasklist would. */
  private void review(String run, Map<String, Object> fields) {
    Task task = engine.getTaskService().createTaskQuery().processInstanceId(run)
        .taskDefinitionKey(ReactAgentProcess.REVIEW_ANSWER).singleResult();
    engine.getIdentityService().setAuthentication("ann", List.of(AgentLoopGroups.REVIEWERS));
    try {
      engine.getFormService().submitTaskForm(task.getId(), new HashMap<>(fields));
    } finally {
      engine.getIdentityService().clearAuthentication();
    }
  }

  private void awaitAnswers(String run, int answers) {
    await().atMost(Runs.PATIENCE).until(() ->
        store.allSteps(run).stream().filter(step -> step.kind() == StepKind.FINAL_ANSWER).count() == answers
            && runs.view(run).waitingFor().contains(ReactAgentProcess.REVIEW_ANSWER));
  }

  private String answer(String run) {
    return runs.view(run).finalAnswer();
  }

  /** The n-th observation on the run's active path. */
  private Step observation(String run, int n) {
    List<Step> observations = store.activePath(run).stream().filter(step -> step.kind() == StepKind.OBSERVATION)
        .toList();
    return observations.get(n - 1);
  }

  private void edit(String run, Step step, String content, String reason) throws Exception {
    resume.edit(new StepEdit(run, step.stepNo(), JSON.readTree(content), reason, runs.view(run).version(), "olga"));
  }
}
