package dev.agentloop.internal.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentloop.AgentLoopTest;
import dev.agentloop.TestAgent;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.internal.resume.ResumeService;
import dev.agentloop.internal.resume.StepEdit;
import dev.agentloop.internal.trace.RunInsights;
import dev.agentloop.internal.trace.SentPrompt;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.step.StepKind;
import dev.agentloop.internal.trace.StepStore;
import dev.agentloop.internal.trace.step.FinalAnswer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.camunda.bpm.engine.ProcessEngine;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Long runs of the shipped diagram with a context budget, driven by the scripted model through the
 * embedded worker: the model reads page after page of an archive (about 400 tokens each) and at the
 * end needs the vault code it read on page 3. The digest keeps it, the window alone loses it; what
 * the model read is checked in the prompts AgentLoop stored for each call.
 */
@AgentLoopTest
class ContextDigestScenarioTest {

  private static final String DIGEST_AGENT = "digest-agent";
  private static final String WINDOW_AGENT = "window-agent";
  private static final String DIGEST = "[AgentLoop] Digest of steps ";
  private static final Duration LONG_RUN = Duration.ofMinutes(3);
  private static final ObjectMapper JSON = new ObjectMapper();

  @Autowired ProcessEngine engine;
  @Autowired RunService runs;
  @Autowired StepStore store;
  @Autowired RunInsights insights;
  @Autowired ResumeService resume;

  @BeforeEach
  void deployAgents() {
    Map<String, String> longRuns = Map.of(AgentSettings.ALLOWED_TOOLS, "archive_page",
        AgentSettings.AUTO_ACCEPT_PLAN, "true", AgentSettings.MAX_STEPS, "200", AgentSettings.MAX_MODEL_CALLS, "250",
        AgentSettings.MAX_TOOL_CALLS, "250", AgentSettings.MAX_TOKENS, "0");
    deployOnce(DIGEST_AGENT, with(longRuns, AgentSettings.CONTEXT_BUDGET_TOKENS, "3000"));
    deployOnce(WINDOW_AGENT, with(longRuns, AgentSettings.CONTEXT_BUDGET_TOKENS, "0"));
  }

  @Test
  void should_answer_at_turn_150_with_a_fact_read_at_step_3_from_the_digest_of_the_turns_that_fell_out() {
    // when
    String run = runs.start(DIGEST_AGENT, "late-fact: which code opens the vault?");
    Step answer = awaitAnswer(run, 1);

    // then the model found the code in its prompt, and the prompt held it in a digest, not as page 3 itself
    assertThat(((FinalAnswer) answer.content()).text()).isEqualTo("The vault code is 4711.");
    JsonNode last = prompt(run, answer).messages();
    assertThat(texts(last, "user")).filteredOn(text -> text.startsWith(DIGEST)).anySatisfy(digest ->
        assertThat(digest).contains("archive_page page=3 -> Archive page 3. The vault code is 4711."));
    assertThat(texts(last, "tool")).as("page 3 went into the digest").noneMatch(text -> text.contains("page 3."))
        .as("but the newest turns are whole").anyMatch(text -> text.startsWith("Archive page 149. "));
    // and no prompt of the run ever held a call without its result, or a result without its call
    List<Step> thinks = store.activePath(run).stream()
        .filter(step -> step.kind() == StepKind.THOUGHT || step.kind() == StepKind.FINAL_ANSWER).toList();
    assertThat(thinks).hasSize(150);
    int digests = 0;
    for (Step step : thinks) {
      JsonNode messages = prompt(run, step).messages();
      assertWholeTurns(step, messages);
      digests = Math.max(digests, (int) texts(messages, "user").stream().filter(t -> t.startsWith(DIGEST)).count());
    }
    assertThat(digests).as("the digest grew block by block, not step by step").isBetween(10, 60);
  }

  @Test
  void should_lose_the_fact_with_the_window_alone() {
    // when the same run has no context budget: the window of 60 steps slides past page 3
    String run = runs.start(WINDOW_AGENT, "late-fact: which code opens the vault?");
    Step answer = awaitAnswer(run, 1);

    // then the model did not find it: what the digest scenario shows is the digest's doing
    assertThat(((FinalAnswer) answer.content()).text()).isEqualTo("The (not in the prompt: vault code is)");
    assertThat(texts(prompt(run, answer).messages(), "user")).noneMatch(text -> text.startsWith(DIGEST))
        .contains("[Earlier steps of this run are left out; the most recent ones follow.]");
  }

  @Test
  void should_derive_the_digest_again_from_an_edited_step() throws Exception {
    // given a run that read the code on page 3 and answered with it at turn 30, from the digest
    String run = runs.start(DIGEST_AGENT, "late-fact-short: which code opens the vault?");
    Step first = awaitAnswer(run, 1);
    assertThat(((FinalAnswer) first.content()).text()).isEqualTo("The vault code is 4711.");
    Step page3 = store.activePath(run).stream().filter(step -> step.kind() == StepKind.OBSERVATION
        && step.text("result").startsWith("Archive page 3.")).findFirst().orElseThrow();

    // when a person corrects page 3
    resume.edit(new StepEdit(run, page3.stepNo(),
        JSON.readTree("{\"result\": \"Archive page 3. The vault code is 1234. The rest is unchanged.\"}"),
        "the code was changed", runs.view(run).version(), "olga"));
    Step second = awaitAnswer(run, 2);

    // then the turns after it ran again and their digest is derived from the edited page, not the old one
    assertThat(((FinalAnswer) second.content()).text()).isEqualTo("The vault code is 1234.");
    List<String> digests = texts(prompt(run, second).messages(), "user").stream()
        .filter(text -> text.startsWith(DIGEST)).toList();
    assertThat(digests).isNotEmpty().anySatisfy(digest -> assertThat(digest).contains("The vault code is 1234."))
        .noneMatch(digest -> digest.contains("4711"));
    assertThat(String.join("\n", digests)).contains("#" + store.activePath(run).stream()
        .filter(step -> step.stepNo() > page3.stepNo() && step.kind() == StepKind.ACTION).findFirst()
        .map(Step::stepNo).orElseThrow());
  }

  /** Every call in the prompt has its result after it, and every result its call before it. */
  private static void assertWholeTurns(Step step, JsonNode messages) {
    Set<String> open = new HashSet<>();
    for (JsonNode message : messages) {
      if ("assistant".equals(message.path("role").asText())) {
        assertThat(open).as("results of step %d's prompt before the next assistant message", step.stepNo()).isEmpty();
        message.path("toolCalls").forEach(call -> open.add(call.path("id").asText()));
      } else if ("tool".equals(message.path("role").asText())) {
        assertThat(open.remove(message.path("callId").asText()))
            .as("the call of a result in step %d's prompt", step.stepNo()).isTrue();
      }
    }
    assertThat(open).as("calls without results in step %d's prompt", step.stepNo()).isEmpty();
  }

  private Step awaitAnswer(String run, int answers) {
    await().atMost(LONG_RUN).until(() -> store.allSteps(run).stream()
        .filter(step -> step.kind() == StepKind.FINAL_ANSWER).count() == answers
        && runs.view(run).waitingFor().contains(ReactAgentProcess.REVIEW_ANSWER));
    List<Step> path = store.activePath(run);
    return path.get(path.size() - 1);
  }

  private SentPrompt prompt(String run, Step step) {
    return insights.prompt(run, step.stepNo()).orElseThrow();
  }

  private static List<String> texts(JsonNode messages, String role) {
    List<String> texts = new ArrayList<>();
    messages.forEach(message -> {
      if (role.equals(message.path("role").asText())) {
        texts.add(message.path("text").asText());
      }
    });
    return texts;
  }

  private void deployOnce(String key, Map<String, String> properties) {
    if (engine.getRepositoryService().createProcessDefinitionQuery().processDefinitionKey(key).count() == 0) {
      TestAgent.deployVariant(engine, key, properties);
    }
  }

  private static Map<String, String> with(Map<String, String> base, String name, String value) {
    Map<String, String> all = new java.util.HashMap<>(base);
    all.put(name, value);
    return all;
  }
}
