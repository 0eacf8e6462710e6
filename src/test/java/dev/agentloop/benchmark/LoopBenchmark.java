package dev.agentloop.benchmark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.agentloop.AgentLoopApplication;
import dev.agentloop.TestAgent;
import dev.agentloop.TestTools;
import dev.agentloop.agent.AgentRuns;
import dev.agentloop.agent.AgentSettings;
import dev.agentloop.trace.RunStatus;
import dev.agentloop.trace.Step;
import dev.agentloop.trace.StepKind;
import dev.agentloop.trace.StepStore;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntFunction;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.camunda.bpm.engine.impl.util.ClockUtil;
import org.camunda.bpm.engine.variable.Variables;
import org.camunda.bpm.model.bpmn.Bpmn;
import org.camunda.bpm.model.bpmn.BpmnModelInstance;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.ActiveProfiles;

/**
 * Issue 2's figures, measured side by side in one JVM on an H2 file database: the agent loop
 * against a bare Camunda loop of the same shape, cost per step early and late in a long run, and
 * throughput of many runs waiting on a slow model. Prints figures; asserts only that runs finished.
 */
@Tag("benchmark")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@SpringBootTest(classes = AgentLoopApplication.class, properties = {
    "spring.datasource.url=jdbc:h2:file:./target/benchmark/loop-${random.uuid}",
    "agentloop.llm.scripted.script=classpath:scripts/benchmark-script.json",
    "logging.level.dev.agentloop=WARN"})
@ActiveProfiles("test")
@Import(TestTools.class)
class LoopBenchmark {

  private static final String AGENT = "benchmark-agent";
  private static final String BARE = "bare-loop";
  private static final String MINIMAL = "minimal-loop";

  @Autowired ProcessEngine engine;
  @Autowired AgentRuns runs;
  @Autowired StepStore store;

  @BeforeAll
  void deploy() {
    // the same no-op call a thousand times is the point here, not a loop to escape from
    TestAgent.deployVariant(engine, AGENT, Map.of(AgentSettings.ALLOWED_TOOLS, "noop", AgentSettings.MAX_STEPS, "100000",
        AgentSettings.MAX_MODEL_CALLS, "1000000", AgentSettings.MAX_TOOL_CALLS, "1000000",
        AgentSettings.LOOP_MAX_REPEATS, "1000000", AgentSettings.AUTO_ACCEPT_PLAN, "true",
        AgentSettings.AUTO_ACCEPT_ANSWER, "true"));
    engine.getRepositoryService().createDeployment().addModelInstance(BARE + ".bpmn", bareLoop())
        .addModelInstance(MINIMAL + ".bpmn", minimalLoop()).deploy();
  }

  /** One fixed sequence, so every figure is measured on a warm JVM and in the same conditions. */
  @Test
  void figures() {
    warmUp();
    StringBuilder report = new StringBuilder();
    report.append(loopAgainstBareLoop()).append("\n\n").append(throughput());
    BenchmarkReport.print("Agent loop (issue 2): H2 file database, history level "
        + engine.getProcessEngineConfiguration().getHistory(), report.toString());
  }

  private void warmUp() {
    for (int i = 0; i < 3; i++) {
      agentLoop(100);
      bareLoop(100);
    }
    throughputOf(200, i -> runs.start(AGENT, "slow10: warm-up " + i));
    throughputOf(200, i -> startBare(BARE, 10));
    throughputOf(200, i -> startBare(MINIMAL, 10));
  }

  private String loopAgainstBareLoop() {
    double[] agent100 = new double[5];
    double[] bare100 = new double[5];
    for (int i = 0; i < 5; i++) {
      agent100[i] = agentLoop(100).msPerIteration;
      bare100[i] = bareLoop(100);
    }
    AgentRun agent1000 = agentLoop(1000);
    double bare1000 = bareLoop(1000);
    double a100 = median(agent100);
    double b100 = median(bare100);
    double early = agent1000.msPerIterationAround(50);
    double late = agent1000.msPerIterationAround(500);
    return String.format(
        "(a, b) one run, zero-latency model, no-op tool   agent loop   bare loop   a/b (target <= 1.5)%n"
            + "      ms/iteration,  100 steps (median of 5)  %8.2f     %8.2f     %5.2f%n"
            + "      ms/iteration, 1000 steps                %8.2f     %8.2f     %5.2f%n"
            + "(c)   agent loop ms/iteration around step 50: %.2f, around step 500: %.2f, ratio %.2f (target <= 1.2)",
        a100, b100, a100 / b100, agent1000.msPerIteration, bare1000, agent1000.msPerIteration / bare1000,
        early, late, late / early);
  }

  private String throughput() {
    double agent = throughputOf(1000, i -> runs.start(AGENT, "slow10: run " + i));
    double bare = throughputOf(1000, i -> startBare(BARE, 10));
    double minimal = throughputOf(1000, i -> startBare(MINIMAL, 10));
    return String.format(
        "(d)   1,000 runs x 10 steps                                      iterations/s%n"
            + "      agent loop, 500 ms model latency (target >= 200)             %6.0f%n"
            + "      bare loop of the same shape, no latency                      %6.0f%n"
            + "      minimal bare loop (think, act, one gateway), no latency      %6.0f",
        agent, bare, minimal);
  }

  /** Starts {@code count} instances of 10 iterations and returns iterations per second until the last ended. */
  private double throughputOf(int count, IntFunction<String> start) {
    Instant begin = ClockUtil.getCurrentTime().toInstant();
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      ids.add(start.apply(i));
    }
    await().atMost(Duration.ofMinutes(10)).pollInterval(Duration.ofMillis(250)).until(() -> engine.getHistoryService()
        .createHistoricProcessInstanceQuery().processInstanceIds(Set.copyOf(ids)).finished().count() == count);
    Instant end = engine.getHistoryService().createHistoricProcessInstanceQuery().processInstanceIds(Set.copyOf(ids))
        .orderByProcessInstanceEndTime().desc().listPage(0, 1).get(0).getEndTime().toInstant();
    return count * 10 / (Duration.between(begin, end).toMillis() / 1e3);
  }

  private String startBare(String key, int iterations) {
    return engine.getRuntimeService().startProcessInstanceByKey(key,
        Variables.createVariables().putValue("n", iterations).putValue("i", 0)).getId();
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }

  private AgentRun agentLoop(int steps) {
    long start = System.nanoTime();
    String id = runs.start(AGENT, "loop" + steps + ": benchmark");
    await().atMost(Duration.ofMinutes(10)).pollInterval(Duration.ofMillis(20))
        .until(() -> store.run(id).status() == RunStatus.ANSWERED);
    double ms = (System.nanoTime() - start) / 1e6;
    List<Step> thoughts = store.activePath(id).stream().filter(s -> s.kind() == StepKind.THOUGHT).toList();
    assertThat(thoughts).hasSize(steps);
    return new AgentRun(ms / steps, thoughts);
  }

  private double bareLoop(int steps) {
    long start = System.nanoTime();
    String id = startBare(BARE, steps);
    await().atMost(Duration.ofMinutes(10)).pollInterval(Duration.ofMillis(20))
        .until(() -> engine.getRuntimeService().createProcessInstanceQuery().processInstanceId(id).count() == 0);
    return (System.nanoTime() - start) / 1e6 / steps;
  }

  /**
   * The agent diagram's shape (embedded sub-process, join gateway, router after think, transient
   * route) with think and act as asynchronous JavaDelegate tasks: what Camunda does with no agent.
   */
  private static BpmnModelInstance bareLoop() {
    return Bpmn.createExecutableProcess(BARE).camundaHistoryTimeToLive(1)
        .startEvent()
        .subProcess("agentLoop").embeddedSubProcess()
        .startEvent("loopStart")
        .exclusiveGateway("loopJoin")
        .serviceTask("think").camundaAsyncBefore().camundaClass(Think.class.getName())
        .exclusiveGateway("nextStep")
        .condition("act", "${route == 'act'}")
        .serviceTask("act").camundaAsyncBefore().camundaClass(Act.class.getName())
        .connectTo("loopJoin")
        .moveToNode("nextStep").condition("done", "${route == 'done'}")
        .endEvent("loopDone")
        .subProcessDone()
        .endEvent()
        .done();
  }

  /** The smallest async loop: think and act in a row, one gateway, no sub-process. */
  private static BpmnModelInstance minimalLoop() {
    return Bpmn.createExecutableProcess(MINIMAL).camundaHistoryTimeToLive(1)
        .startEvent()
        .serviceTask("think").camundaAsyncBefore().camundaClass(Think.class.getName())
        .exclusiveGateway("more")
        .condition("act", "${route == 'act'}")
        .serviceTask("act").camundaAsyncBefore().camundaClass(Act.class.getName())
        .connectTo("think")
        .moveToNode("more").condition("done", "${route == 'done'}").endEvent()
        .done();
  }

  /** Decides like the model: act until n iterations are done. */
  public static class Think implements JavaDelegate {
    @Override
    public void execute(DelegateExecution execution) {
      boolean more = (Integer) execution.getVariable("i") < (Integer) execution.getVariable("n");
      execution.setVariable("route", Variables.stringValue(more ? "act" : "done", true));
    }
  }

  public static class Act implements JavaDelegate {
    @Override
    public void execute(DelegateExecution execution) {
      execution.setVariable("i", (Integer) execution.getVariable("i") + 1);
    }
  }

  private record AgentRun(double msPerIteration, List<Step> thoughts) {

    /** Mean duration of the 50 iterations centred on {@code turn}, from the thoughts' timestamps. */
    double msPerIterationAround(int turn) {
      Step from = thoughts.get(turn - 26);
      Step to = thoughts.get(turn + 24);
      return Duration.between(from.createdAt(), to.createdAt()).toNanos() / 1e6 / 50;
    }
  }
}
