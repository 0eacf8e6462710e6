package dev.agentloop.internal.agent.compose;

import static dev.agentloop.ApiClient.body;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.AgentLoopTest;
import dev.agentloop.ApiClient;
import dev.agentloop.ModelCalls;
import dev.agentloop.Runs;
import dev.agentloop.TestAgent;
import dev.agentloop.TestTools;
import dev.agentloop.api.RunStatus;
import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.internal.trace.RunRecord;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.StepStatus;
import dev.agentloop.internal.trace.StepStore;
import dev.agentloop.internal.trace.step.Observation;
import dev.agentloop.internal.trace.step.StepKind;
import dev.agentloop.spi.AgentTool;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.history.HistoricProcessInstance;
import org.camunda.bpm.engine.task.Task;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;

/**
 * A tree's budget after a person changed it, through the API a person uses: a child that a person's edit re-opens
 * spends from its caller's tree as its first life did, and does not spend at all where the tree is spent; an edit of
 * the caller that runs its call of the child again charges the new child; a tool call that a person's stop leaves
 * without its observation counts for the run and its tree. Each time, what the model and the tool received equals
 * what the runs count, as {@code GET /api/runs/{id}} shows it.
 */
@AgentLoopTest
@Import(TreeBudgetAfterChangesScenarioTest.HeldTool.class)
@TestPropertySource(properties = "camunda.bpm.process-engine-name=treeBudgetAfterChanges")
class TreeBudgetAfterChangesScenarioTest {

  /** The agent the {@code coordinate-edit} script calls. */
  private static final String CHILD = "child-agent";
  private static final String COORDINATOR = "reopen-budget-coordinator";
  private static final String SPENT_COORDINATOR = "spent-budget-coordinator";
  private static final String HELD = "held-tool-agent";
  private static final String HELD_CHILD = "held-tool-child";
  private static final String HELD_COORDINATOR = "held-tree-coordinator";
  private static final String QUESTION = "coordinate-edit: what does the child say?";

  @Autowired ProcessEngine engine;
  @Autowired RunService runs;
  @Autowired StepStore store;
  @LocalServerPort int port;

  private ApiClient operator;

  @DynamicPropertySource
  static void slowTools(DynamicPropertyRegistry registry) {
    // the held tool answers when the test lets it, long after the tests' usual second
    registry.add("agentloop.tools.timeout", () -> "PT60S");
  }

  @BeforeAll
  static void deploy(@Autowired ProcessEngine engine) {
    Map<String, String> auto = Map.of(AgentSettings.AUTO_ACCEPT_PLAN, "true", AgentSettings.AUTO_ACCEPT_ANSWER, "true");
    TestAgent.deployVariant(engine, CHILD, with(auto, AgentSettings.ALLOWED_TOOLS, "calculator"));
    // answers reviewed: the coordinator is still running when its child is edited
    TestAgent.deployVariant(engine, COORDINATOR, Map.of(AgentSettings.ALLOWED_TOOLS, "calculator, " + CHILD,
        AgentSettings.AUTO_ACCEPT_PLAN, "true", AgentSettings.MAX_MODEL_CALLS, "12"));
    TestAgent.deployVariant(engine, SPENT_COORDINATOR, Map.of(AgentSettings.ALLOWED_TOOLS, "calculator, " + CHILD,
        AgentSettings.AUTO_ACCEPT_PLAN, "true", AgentSettings.MAX_MODEL_CALLS, "6"));
    TestAgent.deployVariant(engine, HELD, with(auto, AgentSettings.ALLOWED_TOOLS, HeldTool.NAME));
    TestAgent.deployVariant(engine, HELD_CHILD, with(auto, AgentSettings.ALLOWED_TOOLS, HeldTool.NAME));
    TestAgent.deployVariant(engine, HELD_COORDINATOR, with(auto, AgentSettings.ALLOWED_TOOLS, HELD_CHILD));
  }

  @BeforeEach
  void operator() {
    operator = ApiClient.as(port, "operator");
  }

  @Test
  void should_charge_a_child_reopened_by_an_edit_to_its_callers_tree_as_its_first_life() {
    // given a coordinator (12 model calls) waiting in answer review with its child's answer: 3 + 3 calls made
    String run = runs.start(COORDINATOR, QUESTION);
    Runs.awaitTask(engine, run, ReactAgentProcess.REVIEW_ANSWER);
    String child = children(run).get(0);
    assertThat(used(run, "modelCalls")).isEqualTo(6);

    // when a person edits the child's observation, which re-opens the child
    String reopened = editObservation(child, "5");

    // then the child answers again, and its call counts against the coordinator's tree as it is made
    await().atMost(Runs.PATIENCE).until(() -> store.run(run).modelCalls() == 4);
    Runs.awaitTask(engine, run, ReactAgentProcess.REVIEW_ANSWER);
    RunRecord again = store.run(reopened);
    assertThat(again.tree().callers()).containsExactly(run);
    // at most what the coordinator had left: 12 less its own 3 and its child's 3
    assertThat(again.budget().maxModelCalls()).isEqualTo(6);
    List<String> tree = List.of(run, child, reopened);
    // (exact counts: a step done again after a write raced it is paid twice, and counted twice)
    assertThat(again.modelCalls()).isEqualTo(1);
    assertThat(used(run, "modelCalls")).as(counts(tree)).isEqualTo(ownModelCalls(tree))
        .isEqualTo(ModelCalls.received(tree));
    assertThat(used(run, "toolCalls")).isEqualTo(tree.stream().mapToInt(r -> store.run(r).toolCalls()).sum());
    assertThat(body(operator.get("/api/runs/" + reopened), 200).at("/budgets/modelCalls/limit").asInt()).isEqualTo(6);
  }

  @Test
  void should_not_let_a_child_reopened_by_an_edit_spend_from_a_tree_whose_budget_is_spent() {
    // given a coordinator whose tree made all its 6 model calls, waiting in answer review
    String run = runs.start(SPENT_COORDINATOR, QUESTION);
    Task review = Runs.awaitTask(engine, run, ReactAgentProcess.REVIEW_ANSWER);
    String child = children(run).get(0);
    assertThat(used(run, "modelCalls")).isEqualTo(6);

    // when a person edits the child's observation
    String reopened = editObservation(child, "5");

    // then the re-opened child makes no call: it waits for a person, naming the coordinator's spent budget
    Task stuck = Runs.awaitTask(engine, reopened, ReactAgentProcess.AGENT_STUCK);
    assertThat((String) engine.getTaskService().getVariable(stuck.getId(), ReactAgentProcess.ESCAPE_REASON.name()))
        .startsWith("The budget of run " + run + ", whose call of agents led to this run, is used up: all 6 model"
            + " calls were made");
    assertThat(ModelCalls.received(reopened)).isZero();
    assertThat(store.run(reopened).modelCalls()).isZero();
    // and the coordinator still waits with its answer, its tree within its budget
    assertThat(Runs.awaitTask(engine, run, ReactAgentProcess.REVIEW_ANSWER).getId()).isEqualTo(review.getId());
    List<String> tree = List.of(run, child, reopened);
    assertThat(used(run, "modelCalls")).as(counts(tree)).isEqualTo(6).isEqualTo(ownModelCalls(tree))
        .isEqualTo(ModelCalls.received(tree));
  }

  @Test
  void should_charge_the_new_child_when_an_edit_of_the_caller_runs_its_call_of_the_child_again() {
    // given a coordinator waiting in answer review after its child answered
    String run = runs.start(COORDINATOR, QUESTION);
    Runs.awaitTask(engine, run, ReactAgentProcess.REVIEW_ANSWER);
    Step call = store.activePath(run).stream().filter(step -> step.kind() == StepKind.ACTION).findFirst()
        .orElseThrow();

    // when a person edits its call of the child, which runs the call again
    JsonNode result = body(operator.post("/api/runs/" + run + "/steps/" + call.stepNo() + "/edit",
        "{\"content\": {\"arguments\": {\"question\": \"child-edit: what is 2 + 2, once more?\"}}, \"reason\":"
            + " \"ask again\", \"baseVersion\": " + store.run(run).head().version() + "}"), 200);
    assertThat(result.get("continuesAt").asText()).isEqualTo(ReactAgentProcess.ACT);

    // then the new child's calls count against the coordinator's tree as the first one's did
    await().atMost(Runs.PATIENCE).until(() -> children(run).size() == 2 && store.run(run).modelCalls() == 4);
    Runs.awaitTask(engine, run, ReactAgentProcess.REVIEW_ANSWER);
    List<String> children = children(run);
    List<String> tree = List.of(run, children.get(0), children.get(1));
    assertThat(store.run(children.get(1)).modelCalls()).isEqualTo(3);
    assertThat(used(run, "modelCalls")).as(counts(tree)).isEqualTo(ownModelCalls(tree))
        .isEqualTo(ModelCalls.received(tree));
    assertThat(children).allSatisfy(c -> assertThat(store.run(c).tree().callers()).containsExactly(run));
  }

  @Test
  void should_charge_a_restarted_child_to_its_callers_tree() {
    // given a coordinator waiting in answer review after its child answered
    String run = runs.start(COORDINATOR, QUESTION);
    Runs.awaitTask(engine, run, ReactAgentProcess.REVIEW_ANSWER);
    String child = children(run).get(0);
    Step observation = store.activePath(child).stream().filter(step -> step.kind() == StepKind.OBSERVATION)
        .findFirst().orElseThrow();

    // when an operator restarts the finished child from its observation
    String restarted = body(operator.post("/api/runs/" + child + "/restart", "{\"fromStep\": "
        + observation.stepNo() + ", \"reason\": \"once more\"}"), 201).get("id").asText();

    // then its call counts against the coordinator's tree, within what the coordinator had left
    Runs.awaitStatus(runs, restarted, RunStatus.ANSWERED);
    assertThat(store.run(restarted).tree().callers()).containsExactly(run);
    assertThat(store.run(restarted).budget().maxModelCalls()).isEqualTo(6);
    List<String> tree = List.of(run, child, restarted);
    assertThat(store.run(restarted).modelCalls()).isEqualTo(1);
    assertThat(used(run, "modelCalls")).as(counts(tree)).isEqualTo(ownModelCalls(tree))
        .isEqualTo(ModelCalls.received(tree));
  }

  @Test
  void should_count_a_tool_call_that_a_stop_left_without_its_observation() {
    // given a run whose tool is still working on its call
    String run = runs.start(HELD, "held-tool: look it up");
    await().atMost(Runs.PATIENCE).until(() -> HeldTool.received("single") == 1);

    // when a person stops the run, and then the tool answers
    body(operator.post("/api/runs/" + run + "/stop", "{\"reason\": \"not needed any more\"}"), 200);
    HeldTool.release("single");

    // then the call counts as the run's, its observation kept off the active path with its cost
    Step late = awaitLateObservation(run);
    assertThat(late.text("result")).isEqualTo("held answer for single");
    assertThat(store.run(run).status()).isEqualTo(RunStatus.STOPPED);
    assertThat(store.run(run).toolCalls()).isEqualTo(1).isEqualTo(HeldTool.received("single"));
    assertThat(used(run, "toolCalls")).isEqualTo(1);
    assertThat(store.run(run).modelCalls()).isEqualTo(2).isEqualTo(ModelCalls.received(run));
  }

  @Test
  void should_count_a_tool_call_of_a_stopped_child_for_the_child_and_its_callers_tree() {
    // given a coordinator whose child's tool is still working on its call
    String run = runs.start(HELD_COORDINATOR, "held-tree: ask the child");
    await().atMost(Runs.PATIENCE).until(() -> HeldTool.received("child") == 1);
    String child = children(run).get(0);

    // when a person stops the child, and then the tool answers
    body(operator.post("/api/runs/" + child + "/stop", "{\"reason\": \"asked elsewhere\"}"), 200);
    HeldTool.release("child");

    // then the call counts for the child and, once, for the coordinator's tree, which went on without it
    awaitLateObservation(child);
    Runs.awaitStatus(runs, run, RunStatus.ANSWERED);
    assertThat(store.run(child).toolCalls()).isEqualTo(1).isEqualTo(HeldTool.received("child"));
    List<String> tree = List.of(run, child);
    // the coordinator's one call of the child, and the child's call of the tool
    assertThat(used(run, "toolCalls")).isEqualTo(2).isEqualTo(tree.stream().mapToInt(r -> store.run(r).toolCalls())
        .sum());
    assertThat(used(run, "modelCalls")).as(counts(tree)).isEqualTo(ownModelCalls(tree))
        .isEqualTo(ModelCalls.received(tree));
  }

  /** Edits a child's observation through the API; the id of the run started again from the edit. */
  private String editObservation(String child, String result) {
    Step observation = store.activePath(child).stream().filter(step -> step.kind() == StepKind.OBSERVATION)
        .findFirst().orElseThrow();
    JsonNode edited = body(operator.post("/api/runs/" + child + "/steps/" + observation.stepNo() + "/edit",
        "{\"content\": {\"result\": \"" + result + "\"}, \"reason\": \"recounted\", \"baseVersion\": "
            + store.run(child).head().version() + "}"), 200);
    String reopened = edited.get("runId").asText();
    assertThat(reopened).isNotEqualTo(child);
    return reopened;
  }

  private Step awaitLateObservation(String run) {
    return await().atMost(Runs.PATIENCE).until(() -> store.allSteps(run).stream()
        .filter(step -> step.kind() == StepKind.OBSERVATION && step.status() == StepStatus.SUPERSEDED
            && step.reason() != null && step.reason().startsWith("the tool answered after the run had left its loop"))
        .findFirst(), java.util.Optional::isPresent).orElseThrow();
  }

  /** Each run's own model calls and what the model received for it, for a failure's message. */
  private String counts(List<String> runIds) {
    return runIds.stream().map(r -> r + ": " + store.run(r).modelCalls() + " counted, " + ModelCalls.received(r)
        + " received").toList().toString();
  }

  /** What the run and the runs it called used, as {@code GET /api/runs/{id}} shows it. */
  private int used(String run, String budget) {
    return body(operator.get("/api/runs/" + run), 200).at("/budgets/" + budget + "/used").asInt();
  }

  private int ownModelCalls(List<String> runIds) {
    return runIds.stream().mapToInt(r -> store.run(r).modelCalls()).sum();
  }

  private List<String> children(String run) {
    return engine.getHistoryService().createHistoricProcessInstanceQuery().superProcessInstanceId(run)
        .orderByProcessInstanceStartTime().asc().list().stream().map(HistoricProcessInstance::getId).toList();
  }

  private static Map<String, String> with(Map<String, String> settings, String key, String value) {
    Map<String, String> all = new java.util.HashMap<>(settings);
    all.put(key, value);
    return all;
  }

  /**
   * A slow tool that is slow exactly as long as a test needs: a call with {@code key} is received and counted at
   * once, and answers only after {@link #release} (within this class's tool time-out).
   */
  @TestConfiguration(proxyBeanMethods = false)
  static class HeldTool {

    static final String NAME = "held_lookup";
    private static final Map<String, AtomicInteger> RECEIVED = new ConcurrentHashMap<>();
    private static final Map<String, CompletableFuture<Void>> GATES = new ConcurrentHashMap<>();

    @Bean
    AgentTool heldLookup() {
      return TestTools.tool(NAME, false, TestTools.parse("{\"type\": \"object\", \"properties\": {\"key\":"
          + " {\"type\": \"string\"}}, \"required\": [\"key\"]}"), arguments -> {
            String key = arguments.get("key").asText();
            RECEIVED.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
            gate(key).get(50, TimeUnit.SECONDS);
            return "held answer for " + key;
          });
    }

    static int received(String key) {
      AtomicInteger calls = RECEIVED.get(key);
      return calls == null ? 0 : calls.get();
    }

    static void release(String key) {
      gate(key).complete(null);
    }

    private static CompletableFuture<Void> gate(String key) {
      return GATES.computeIfAbsent(key, k -> new CompletableFuture<>());
    }
  }
}
