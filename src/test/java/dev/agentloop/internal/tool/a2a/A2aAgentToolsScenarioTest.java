package dev.agentloop.internal.tool.a2a;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentloop.A2aPeers;
import dev.agentloop.AgentLoopApplication;
import dev.agentloop.Runs;
import dev.agentloop.TestAgent;
import dev.agentloop.api.RunStatus;
import dev.agentloop.api.RunView;
import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.Steps;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.internal.tool.ToolRegistry;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.step.Action;
import dev.agentloop.internal.trace.step.Observation;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.task.Task;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Remote A2A agents as tools of an agent, through the whole loop: {@code travel} is an agent of the official A2A
 * JavaScript SDK's server (npm), reached with a bearer token; it answers, asks for input (which goes to the run's
 * reviewers as an ask-human task, and their answer back to it), and fails a task. The unfriendly peers: one that is
 * down, one too slow for its time-out, one answering junk, one refusing the credentials, one whose card points
 * elsewhere, one answering 503. The scripted model of {@code scripts/a2a-script.json} drives them.
 */
@SpringBootTest(classes = AgentLoopApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {"agentloop.llm.scripted.script=classpath:scripts/a2a-script.json",
        // a context of its own: the engine named "default" (behind /engine-rest) stays the shared test context's
        "camunda.bpm.process-engine-name=a2aTools"})
@ActiveProfiles("test")
@Import(TestAgent.class)
class A2aAgentToolsScenarioTest {

  private static final String AGENT = "a2a-calling-agent";
  private static final String TOKEN = "s3cret-token";
  private static int travelPort;
  private static Process travel;
  private static UnfriendlyA2aPeer unfriendly;

  @Autowired ProcessEngine engine;
  @Autowired RunService runs;
  @Autowired ToolRegistry tools;

  @BeforeAll
  static void startThePeers() throws IOException {
    travelPort = A2aPeers.freePort();
    travel = A2aPeers.server(travelPort, TOKEN);
    unfriendly = new UnfriendlyA2aPeer();
  }

  @AfterAll
  static void stopThePeers() {
    if (travel != null) {
      travel.destroyForcibly();
    }
    if (unfriendly != null) {
      unfriendly.close();
    }
  }

  @DynamicPropertySource
  static void remoteAgents(DynamicPropertyRegistry properties) {
    remote(properties, "travel", () -> "http://127.0.0.1:" + travelPort, "Bearer " + TOKEN, "PT10S");
    remote(properties, "slowdesk", () -> "http://127.0.0.1:" + travelPort, "Bearer " + TOKEN, "PT2S");
    remote(properties, "locked", () -> "http://127.0.0.1:" + travelPort, "Bearer wrong", "PT5S");
    remote(properties, "down", () -> "http://127.0.0.1:" + A2aPeers.freePort(), "Bearer " + TOKEN, "PT5S");
    remote(properties, "junk", () -> unfriendly.url("junk"), "Bearer " + TOKEN, "PT5S");
    remote(properties, "elsewhere", () -> unfriendly.url("elsewhere"), "Bearer " + TOKEN, "PT5S");
    remote(properties, "broken", () -> unfriendly.url("broken"), "Bearer " + TOKEN, "PT5S");
  }

  private static void remote(DynamicPropertyRegistry properties, String name,
      java.util.function.Supplier<Object> url, String authorization, String timeout) {
    properties.add("agentloop.tools.a2a." + name + ".url", url);
    properties.add("agentloop.tools.a2a." + name + ".headers.Authorization", () -> authorization);
    properties.add("agentloop.tools.a2a." + name + ".timeout", () -> timeout);
    properties.add("agentloop.tools.a2a." + name + ".side-effects", () -> "false");
  }

  @BeforeEach
  void deployOnce() {
    if (engine.getRepositoryService().createProcessDefinitionQuery().processDefinitionKey(AGENT).count() > 0) {
      return;
    }
    TestAgent.deployVariant(engine, AGENT, Map.of(AgentSettings.ALLOWED_TOOLS,
        "travel,slowdesk,locked,down,junk,elsewhere,broken,ask_human", AgentSettings.AUTO_ACCEPT_PLAN, "true",
        AgentSettings.AUTO_ACCEPT_ANSWER, "true"));
  }

  @Test
  void should_answer_with_what_the_remote_agent_answered() {
    String run = runs.start(AGENT, "a2a-weather: in Lisbon?");

    RunView done = Runs.awaitStatus(runs, run, RunStatus.ANSWERED);

    assertThat(done.finalAnswer()).startsWith("It is sunny in Lisbon.");
    assertThat(tools.find("travel").orElseThrow().description()).contains("Travel desk", "Booking");
  }

  @Test
  void should_ask_the_runs_reviewers_what_the_remote_agent_asks_and_send_it_their_answer() {
    // given a run whose remote agent asks for input
    String run = runs.start(AGENT, "a2a-book: a room");

    // then the run's reviewers get the remote agent's question
    Task ask = Runs.awaitTask(engine, run, ReactAgentProcess.ASK_HUMAN);
    assertThat(engine.getTaskService().getVariable(ask.getId(), "question1"))
        .isEqualTo("Remote agent 'travel' asks: For which date?");

    // when a reviewer answers it
    Runs.submitForm(engine, ask, "reviewer", Map.of("answer1", "Friday"));

    // then the answer goes to the remote task, which completes, and the agent answers with it
    RunView done = Runs.awaitStatus(runs, run, RunStatus.ANSWERED);
    assertThat(done.finalAnswer()).startsWith("Booked a room on Friday.");
    List<Step> trace = runs.trace(run, false);
    Action forwarded = trace.stream().filter(step -> step.content() instanceof Action a && a.callId()
        .startsWith("remote_answer")).map(step -> (Action) step.content()).findFirst().orElseThrow();
    assertThat(forwarded.tool()).isEqualTo("travel");
    assertThat(forwarded.arguments().path("message").asText()).isEqualTo("Friday");
    assertThat(trace).filteredOn(step -> step.content() instanceof Action a && a.callId().startsWith("remote_"))
        .allMatch(step -> Steps.AGENTLOOP.equals(step.author()));
  }

  @Test
  void should_tell_the_model_in_words_what_each_unfriendly_peer_did() {
    String run = runs.start(AGENT, "a2a-unfriendly: hello?");

    Runs.awaitStatus(runs, run, RunStatus.ANSWERED);

    Map<String, Observation> seen = runs.trace(run, false).stream()
        .filter(step -> step.content() instanceof Observation o && o.ofCall()).map(step -> (Observation) step.content())
        .collect(Collectors.toMap(Observation::tool, Function.identity(), (a, b) -> b));
    assertThat(seen.get("down").failure()).isEqualTo("failed");
    assertThat(seen.get("slowdesk").failure()).isEqualTo("timed_out");
    assertThat(seen.get("slowdesk").error()).contains("did not finish within 2 s", "was cancelled");
    assertThat(seen.get("junk").error()).contains("no JSON object", "oops");
    assertThat(seen.get("travel").error()).contains("failed the task", "The travel desk is closed.");
    assertThat(seen.get("locked").error()).contains("refused the credentials (HTTP 401)",
        "agentloop.tools.a2a.locked.headers");
    assertThat(seen.get("elsewhere").error()).contains("not on http://127.0.0.1:", "AGENTLOOP-602");
    assertThat(seen.get("broken").error()).contains("HTTP 503");
  }
}
