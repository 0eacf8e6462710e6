package dev.agentloop.internal.resilience;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.agentloop.AgentLoopTest;
import dev.agentloop.ModelCalls;
import dev.agentloop.TestAgent;
import dev.agentloop.api.RunStatus;
import dev.agentloop.api.RunView;
import dev.agentloop.demo.DemoConfiguration;
import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.internal.resume.Conversations;
import dev.agentloop.internal.trace.RunRecord;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.StepStore;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.history.HistoricProcessInstance;
import org.camunda.bpm.engine.task.Task;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.TestPropertySource;

/**
 * 500 runs of a scripted agent against the demo's flaky tool (30 % transient failures, 10 % persistent,
 * 2 % hangs, seeded), registered by the demo's own configuration from its {@code demo.tools.flaky.*} keys. The agent reads two pages of results; after a persistent failure
 * it checks the same query over and over, written a little differently each time (case, whitespace),
 * and after a transient one it fetches both pages at once, so runs meet the loop detector and the
 * tool-call budget, and the flaky tool's breaker if it opens. Every run must end answered or wait in
 * agentStuck with a stated reason; none may go past its budget or repeat a call past the loop limits;
 * none may be lost or leave a call without its observation, and the model must have received exactly the calls the
 * runs count. Two more modes do the same with what the budget must also hold for: trees of agents (coordinators
 * each asking three chaotic children at once) and conversations (up to four questions, a person raising a spent
 * budget). The counts go to target/chaos-report.txt.
 *
 * <p>A context of its own: a hang costs its attempt the tool time-out, so that is short here, and the
 * other tests' runs and breakers stay apart from 500 chaotic runs.
 */
@AgentLoopTest
@Import(DemoConfiguration.class)
// an engine of its own name: a second "default" would take /engine-rest and the webapps from the shared context
@TestPropertySource(properties = {"agentloop.tools.timeout=PT0.1S", "camunda.bpm.process-engine-name=chaos",
    "demo.users.enabled=false", "demo.tools.flaky.enabled=true", "demo.tools.flaky.seed=20240605",
    "demo.tools.flaky.transient-rate=0.3", "demo.tools.flaky.persistent-rate=0.1", "demo.tools.flaky.hang-rate=0.02"})
class ChaosTest {

  private static final String AGENT = "chaos-agent";
  private static final int RUNS = 500;
  private static final int MAX_STEPS = 8;
  private static final int MAX_TOOL_CALLS = 6;
  private static final int MAX_MODEL_CALLS = 9;
  private static final String CHILD = "chaos-child";
  private static final String COORDINATOR = "chaos-coordinator";
  private static final int TREES = 60;
  private static final int TREE_MODEL_CALLS = 14;
  private static final int TREE_TOOL_CALLS = 12;
  private static final String CHAT = "chaos-chat";
  private static final int CHATS = 60;
  private static final int CHAT_TURNS = 4;
  private static final Set<String> ESCAPES = Set.of(Escapes.LOOP_DETECTED, Escapes.BUDGET_EXHAUSTED,
      Escapes.TOOL_UNAVAILABLE);

  @Autowired ProcessEngine engine;
  @Autowired RunService runs;
  @Autowired StepStore store;
  @Autowired ResilienceMetrics metrics;
  @Autowired Conversations conversations;

  @Test
  void should_end_every_run_answered_or_escaped_within_its_budget_without_losing_any() throws IOException {
    // given
    TestAgent.deployVariant(engine, AGENT, Map.of(AgentSettings.ALLOWED_TOOLS, "flaky",
        AgentSettings.AUTO_ACCEPT_PLAN, "true", AgentSettings.AUTO_ACCEPT_ANSWER, "true",
        AgentSettings.MAX_STEPS, String.valueOf(MAX_STEPS), AgentSettings.MAX_TOOL_CALLS, String.valueOf(MAX_TOOL_CALLS),
        AgentSettings.MAX_MODEL_CALLS, String.valueOf(MAX_MODEL_CALLS)));
    Map<String, Double> before = ChaosReport.flakyMeters(metrics);
    long start = System.nanoTime();

    // when
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < RUNS; i++) {
      ids.add(runs.start(AGENT, "chaos: run " + i));
    }
    await().atMost(Duration.ofMinutes(5)).pollInterval(Duration.ofMillis(500)).until(() -> settled() == RUNS);
    Duration took = Duration.ofNanos(System.nanoTime() - start);

    // then no run needs an operator, and each one answered or waits for a person with a reason
    assertThat(engine.getRuntimeService().createIncidentQuery().processDefinitionKeyIn(AGENT).count()).isZero();
    Map<String, Task> stuck = engine.getTaskService().createTaskQuery().processDefinitionKey(AGENT)
        .taskDefinitionKey(ReactAgentProcess.AGENT_STUCK).list().stream()
        .collect(Collectors.toMap(Task::getProcessInstanceId, task -> task));
    Map<String, Integer> outcomes = new TreeMap<>();
    for (String id : ids) {
      RunRecord run = store.run(id);
      List<Step> path = store.activePath(id);
      String outcome = outcome(id, run, stuck.containsKey(id));
      outcomes.merge(outcome, 1, Integer::sum);
      assertWithinBudget(id, run, path);
      // the model received exactly the calls the run counts
      assertThat(ModelCalls.received(id)).as("model calls received for %s", id).isEqualTo(run.modelCalls());
      ChaosChecks.assertNoLoop(id, path);
      ChaosChecks.assertWhole(id, path, run.status() == RunStatus.ANSWERED);
    }
    assertThat(outcomes.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(RUNS);
    assertThat(outcomes).containsKey("ANSWERED");

    ChaosReport.report(RUNS + " runs against the flaky tool", outcomes,
        ChaosReport.delta(before, ChaosReport.flakyMeters(metrics)), took);
  }

  /**
   * Composition: coordinators on a small budget each ask three chaotic children at once. No tree spends past its
   * coordinator's budget, the model receives exactly the calls the runs count, and each coordinator answers, waits in
   * agentStuck (its tree's budget spent, naming the child), or waits for a child stuck in its own agentStuck.
   */
  @Test
  void should_keep_every_tree_of_agents_within_its_coordinators_budget_with_every_call_counted() throws IOException {
    TestAgent.deployVariant(engine, CHILD, chaosAgent(Map.of()));
    TestAgent.deployVariant(engine, COORDINATOR, Map.of(AgentSettings.ALLOWED_TOOLS, CHILD,
        AgentSettings.AUTO_ACCEPT_PLAN, "true", AgentSettings.AUTO_ACCEPT_ANSWER, "true",
        AgentSettings.MAX_MODEL_CALLS, String.valueOf(TREE_MODEL_CALLS),
        AgentSettings.MAX_TOOL_CALLS, String.valueOf(TREE_TOOL_CALLS)));
    long start = System.nanoTime();
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < TREES; i++) {
      ids.add(runs.start(COORDINATOR, "chaos-tree: tree " + i));
    }
    await().atMost(Duration.ofMinutes(5)).pollInterval(Duration.ofMillis(500))
        .until(() -> ids.stream().allMatch(this::treeSettled));

    Map<String, Integer> outcomes = new TreeMap<>();
    for (String id : ids) {
      List<String> tree = new ArrayList<>(children(id));
      tree.add(id);
      // a child stopped while its model answered is paid for: its reply is kept and counted when it comes
      await().atMost(Duration.ofMinutes(1)).until(() -> ModelCalls.received(tree)
          == tree.stream().mapToInt(run -> store.run(run).modelCalls()).sum());
      RunView view = runs.view(id);
      assertThat(view.budgets().modelCalls().used()).as("model calls of tree %s", id)
          .isEqualTo(ModelCalls.received(tree)).isLessThanOrEqualTo(TREE_MODEL_CALLS);
      assertThat(view.budgets().toolCalls().used()).as("tool calls of tree %s", id)
          .isLessThanOrEqualTo(TREE_TOOL_CALLS);
      outcomes.merge(treeOutcome(view), 1, Integer::sum);
    }
    assertThat(outcomes.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(TREES);
    ChaosReport.report(TREES + " coordinators, each asking three chaotic children at once", outcomes, Map.of(),
        Duration.ofNanos(System.nanoTime() - start));
  }

  /**
   * Conversations: each asks up to four questions on a budget of 9 model calls over all its turns. When the budget
   * is spent, a person raises it (twice at most); no conversation goes past its budget, none answers on a follow-up
   * alone, and the model receives exactly the calls the runs count.
   */
  @Test
  void should_keep_every_conversation_within_its_budget_over_all_its_turns() throws IOException {
    TestAgent.deployVariant(engine, CHAT, chaosAgent(Map.of(AgentSettings.CONVERSATION, "true",
        AgentSettings.CONVERSATION_IDLE, "PT1H")));
    long start = System.nanoTime();
    Map<String, ChaosChat> chats = new HashMap<>();
    for (int i = 0; i < CHATS; i++) {
      String id = runs.start(CHAT, "chaos: chat " + i);
      chats.put(id, new ChaosChat(id, runs, conversations, engine, CHAT_TURNS));
    }
    await().atMost(Duration.ofMinutes(5)).pollInterval(Duration.ofMillis(500))
        .until(() -> chats.values().stream().allMatch(ChaosChat::step));

    Map<String, Integer> outcomes = new TreeMap<>();
    for (ChaosChat chat : chats.values()) {
      await().atMost(Duration.ofMinutes(1)).until(() -> ModelCalls.received(chat.id())
          == store.run(chat.id()).modelCalls());
      RunView view = runs.view(chat.id());
      assertThat((long) view.modelCalls()).as("model calls of %s", chat.id())
          .isLessThanOrEqualTo(view.budgets().modelCalls().limit());
      assertThat(view.budgets().modelCalls().limit()).isEqualTo(MAX_MODEL_CALLS * (1L + chat.raised()));
      outcomes.merge(chat.outcome(view), 1, Integer::sum);
    }
    ChaosReport.report(CHATS + " conversations of up to " + CHAT_TURNS + " turns", outcomes, Map.of(),
        Duration.ofNanos(System.nanoTime() - start));
  }

  /** Runs that ended, wait in agentStuck, or (a failure of this test) have an incident. */
  private long settled() {
    return engine.getHistoryService().createHistoricProcessInstanceQuery().processDefinitionKey(AGENT).finished().count()
        + engine.getTaskService().createTaskQuery().processDefinitionKey(AGENT)
            .taskDefinitionKey(ReactAgentProcess.AGENT_STUCK).count()
        + engine.getRuntimeService().createIncidentQuery().processDefinitionKeyIn(AGENT).count();
  }

  private String outcome(String id, RunRecord run, boolean waitsInAgentStuck) {
    if (run.status() == RunStatus.ANSWERED) {
      assertThat(waitsInAgentStuck).as(id).isFalse();
      return "ANSWERED";
    }
    assertThat(waitsInAgentStuck).as("run %s is %s but not in agentStuck", id, run.status()).isTrue();
    String code = (String) engine.getRuntimeService().getVariable(id, ReactAgentProcess.ESCAPE_CODE.name());
    String reason = (String) engine.getRuntimeService().getVariable(id, ReactAgentProcess.ESCAPE_REASON.name());
    assertThat(code).as(id).isIn(ESCAPES);
    assertThat(reason).as(id).isNotBlank();
    return "escaped " + code;
  }

  private static void assertWithinBudget(String id, RunRecord run, List<Step> path) {
    assertThat(run.toolCalls()).as("tool calls of %s", id).isLessThanOrEqualTo(MAX_TOOL_CALLS);
    assertThat(run.modelCalls()).as("model calls of %s", id).isLessThanOrEqualTo(MAX_MODEL_CALLS);
    assertThat(run.head().headTurn()).as("turns of %s", id).isLessThanOrEqualTo(MAX_STEPS);
    assertThat(path.size()).as("steps of %s", id).isLessThanOrEqualTo(1 + MAX_STEPS * (2 + 2 * 2));
  }

  /** The chaotic agent's settings, and more. */
  private static Map<String, String> chaosAgent(Map<String, String> more) {
    Map<String, String> settings = new HashMap<>(Map.of(AgentSettings.ALLOWED_TOOLS, "flaky",
        AgentSettings.AUTO_ACCEPT_PLAN, "true", AgentSettings.AUTO_ACCEPT_ANSWER, "true",
        AgentSettings.MAX_STEPS, String.valueOf(MAX_STEPS),
        AgentSettings.MAX_TOOL_CALLS, String.valueOf(MAX_TOOL_CALLS),
        AgentSettings.MAX_MODEL_CALLS, String.valueOf(MAX_MODEL_CALLS)));
    settings.putAll(more);
    return settings;
  }

  /** A coordinator that ended, waits in agentStuck, or waits only for children that wait in theirs. */
  private boolean treeSettled(String id) {
    RunView view = runs.view(id);
    if (view.status().isFinished() || view.waitingFor().contains(ReactAgentProcess.AGENT_STUCK)) {
      return true;
    }
    return view.activeStep() != null && !view.activeStep().children().isEmpty() && view.activeStep().children()
        .stream().allMatch(child -> child.activeStep() != null
            && ReactAgentProcess.AGENT_STUCK.equals(child.activeStep().activity()));
  }

  private String treeOutcome(RunView view) {
    if (view.status() == RunStatus.ANSWERED) {
      return "ANSWERED";
    }
    if (view.waitingFor().contains(ReactAgentProcess.AGENT_STUCK)) {
      String reason = (String) engine.getRuntimeService().getVariable(view.id(),
          ReactAgentProcess.ESCAPE_REASON.name());
      assertThat(reason).as(view.id()).isNotBlank();
      return reason.startsWith("The budget of this run and the agents it called is used up")
          ? "tree budget spent, naming the child" : "escaped " + engine.getRuntimeService().getVariable(view.id(),
          ReactAgentProcess.ESCAPE_CODE.name());
    }
    assertThat(view.activeStep().children()).allSatisfy(child ->
        assertThat(child.activeStep().problem()).as("why %s is stuck", child.runId()).isNotBlank());
    return "waits for a child stuck in agentStuck";
  }

  private List<String> children(String run) {
    return engine.getHistoryService().createHistoricProcessInstanceQuery().superProcessInstanceId(run).list().stream()
        .map(HistoricProcessInstance::getId).toList();
  }
}
