package dev.agentloop.benchmark;

import dev.agentloop.TestAgent;
import dev.agentloop.internal.agent.definition.AgentSettings;
import java.util.Map;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.camunda.bpm.engine.variable.Variables;
import org.camunda.bpm.model.bpmn.Bpmn;
import org.camunda.bpm.model.bpmn.BpmnModelInstance;

/**
 * The loops the throughput benchmarks compare: the agent (the shipped diagram, a no-op tool, no
 * budget in the way) and bare Camunda loops of the same shape with JavaDelegates instead of
 * external tasks: what the engine costs with no agent.
 */
final class LoopShapes {

  static final String AGENT = "benchmark-agent";
  static final String BARE = "bare-loop";
  static final String MINIMAL = "minimal-loop";

  private LoopShapes() {}

  static void deploy(ProcessEngine engine) {
    // the same no-op call a thousand times is the point here, not a loop to escape from
    TestAgent.deployVariant(engine, AGENT, Map.of(AgentSettings.ALLOWED_TOOLS, "noop", AgentSettings.MAX_STEPS, "100000",
        AgentSettings.MAX_MODEL_CALLS, "1000000", AgentSettings.MAX_TOOL_CALLS, "1000000",
        AgentSettings.LOOP_MAX_REPEATS, "1000000", AgentSettings.AUTO_ACCEPT_PLAN, "true",
        AgentSettings.AUTO_ACCEPT_ANSWER, "true"));
    engine.getRepositoryService().createDeployment().addModelInstance(BARE + ".bpmn", bareLoop())
        .addModelInstance(MINIMAL + ".bpmn", minimalLoop()).deploy();
  }

  static String startBare(ProcessEngine engine, String key, int iterations) {
    return engine.getRuntimeService().startProcessInstanceByKey(key,
        Variables.createVariables().putValue("n", iterations).putValue("i", 0)).getId();
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
}
