package dev.agentloop.internal.resilience;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.agentloop.AgentLoopTest;
import dev.agentloop.TestAgent;
import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.api.RunStatus;
import dev.agentloop.demo.DemoConfiguration;
import dev.agentloop.internal.trace.RunRecord;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.StepKind;
import dev.agentloop.internal.trace.StepStore;
import dev.agentloop.internal.trace.step.Action;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.camunda.bpm.engine.ProcessEngine;
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
 * none may be lost or leave a call without its observation. The counts go to target/chaos-report.txt.
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
  private static final Set<String> ESCAPES = Set.of(Escapes.LOOP_DETECTED, Escapes.BUDGET_EXHAUSTED,
      Escapes.TOOL_UNAVAILABLE);

  @Autowired ProcessEngine engine;
  @Autowired RunService runs;
  @Autowired StepStore store;
  @Autowired ResilienceMetrics metrics;

  @Test
  void should_end_every_run_answered_or_escaped_within_its_budget_without_losing_any() throws IOException {
    // given
    TestAgent.deployVariant(engine, AGENT, Map.of(AgentSettings.ALLOWED_TOOLS, "flaky",
        AgentSettings.AUTO_ACCEPT_PLAN, "true", AgentSettings.AUTO_ACCEPT_ANSWER, "true",
        AgentSettings.MAX_STEPS, String.valueOf(MAX_STEPS), AgentSettings.MAX_TOOL_CALLS, String.valueOf(MAX_TOOL_CALLS),
        AgentSettings.MAX_MODEL_CALLS, String.valueOf(MAX_MODEL_CALLS)));
    Map<String, Double> before = flakyMeters();
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
      assertNoLoop(id, path);
      assertWhole(id, path, run.status() == RunStatus.ANSWERED);
    }
    assertThat(outcomes.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(RUNS);
    assertThat(outcomes).containsKey("ANSWERED");

    report(outcomes, delta(before, flakyMeters()), took);
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

  /**
   * No call run more often than the loop limit lets through: three times warned, the fourth gets a turn
   * for the final answer or escapes. Calls refused unrun (on a final-answer turn) do not count.
   */
  private static void assertNoLoop(String id, List<Step> path) {
    Map<String, Integer> calls = new HashMap<>();
    java.util.Set<String> refused = new java.util.HashSet<>();
    path.stream().filter(step -> step.kind() == StepKind.OBSERVATION && "not_offered".equals(step.text("failure")))
        .forEach(step -> refused.add(step.text("callId")));
    path.stream().filter(step -> step.kind() == StepKind.ACTION).map(Action::from)
        .filter(action -> !refused.contains(action.callId()))
        .forEach(action -> calls.merge(CallSignature.of(action.tool(), action.arguments(), action.rawArguments(), true),
            1, Integer::sum));
    assertThat(calls.values()).as("calls of %s", id).allSatisfy(count -> assertThat(count).isLessThanOrEqualTo(4));
  }

  /** One chain of steps, every call with exactly one observation, an answer at the end of answered runs. */
  private static void assertWhole(String id, List<Step> path, boolean answered) {
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

  private Map<String, Double> flakyMeters() {
    Map<String, Double> values = new TreeMap<>();
    metrics.registry().find("agentloop.tool.failures").tag("tool", "flaky").counters()
        .forEach(c -> values.put("failed attempts, " + c.getId().getTag("class"), c.count()));
    metrics.registry().find("agentloop.tool.calls").tag("tool", "flaky").timers()
        .forEach(t -> values.put("calls, " + t.getId().getTag("outcome"), (double) t.count()));
    metrics.registry().find("agentloop.breaker.transitions").tag("name", "tool:flaky").counters()
        .forEach(c -> values.put("breaker entered " + c.getId().getTag("state"), c.count()));
    metrics.registry().find("agentloop.loop.detections").counters()
        .forEach(c -> values.merge("loop detections, " + c.getId().getTag("level"), c.count(), Double::sum));
    return values;
  }

  private static Map<String, Double> delta(Map<String, Double> before, Map<String, Double> after) {
    Map<String, Double> delta = new TreeMap<>();
    after.forEach((name, value) -> delta.put(name, value - before.getOrDefault(name, 0.0)));
    return delta;
  }

  private static void report(Map<String, Integer> outcomes, Map<String, Double> meters, Duration took) throws IOException {
    StringBuilder text = new StringBuilder("\n== Chaos: " + RUNS + " runs against the flaky tool (30 % transient,"
        + " 10 % persistent, 2 % hang) ==\n");
    double load = java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    outcomes.forEach((outcome, count) -> text.append(String.format("%-28s %5d%n", outcome, count)));
    meters.forEach((name, value) -> text.append(String.format("%-28s %5.0f%n", name, value)));
    text.append(String.format("%-28s %5.1f s (load average %.1f on %d cores)%n", "took", took.toMillis() / 1000.0,
        load, Runtime.getRuntime().availableProcessors()));
    System.out.println(text);
    Path file = Path.of("target", "chaos-report.txt");
    Files.createDirectories(file.getParent());
    Files.writeString(file, text.toString());
  }
}
