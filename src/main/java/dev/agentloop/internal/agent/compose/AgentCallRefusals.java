package dev.agentloop.internal.agent.compose;

import dev.agentloop.internal.agent.AgentStartRights;
import dev.agentloop.internal.agent.definition.AgentDefaults;
import dev.agentloop.internal.agent.definition.AgentDefinitions;
import dev.agentloop.internal.trace.step.Action;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.RuntimeService;
import org.camunda.bpm.engine.runtime.ProcessInstance;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;

/**
 * Whether a run may call other agents at all: not deeper than {@link AgentDefaults#maxAgentDepth()} below a
 * top-level run, and only agents the person the run acts for may start. Apart from {@link ChildRuns}, which starts
 * and observes the calls that pass. Thread-safe.
 */
class AgentCallRefusals {

  private static final Logger LOG = LoggerFactory.getLogger(AgentCallRefusals.class);

  private final AgentDefinitions definitions;
  private final ObjectProvider<ProcessEngine> engine;
  private final int maxDepth;
  private final AgentStartRights rights;

  AgentCallRefusals(AgentDefinitions definitions, ObjectProvider<ProcessEngine> engine, int maxDepth,
      AgentStartRights rights) {
    this.definitions = definitions;
    this.engine = engine;
    this.maxDepth = maxDepth;
    this.rights = rights;
  }

  /**
   * Why calls of agents may not run, by call id: every call where this run is too deep ({@link #tooDeep}); each call of
   * an agent that the person this run acts for may not start ({@link AgentStartRights}). A call activity starts its
   * child as the engine, so without this a child would run, and its answer land in this run's trace, where its
   * starter could not have started it.
   */
  Map<String, String> of(String runId, List<Action> calls) {
    Optional<String> tooDeep = tooDeep(runId);
    Optional<String> user = tooDeep.isPresent() ? Optional.empty() : rights.actingFor(runId);
    Map<String, String> refused = new HashMap<>();
    for (Action call : calls) {
      tooDeep.or(() -> user.flatMap(starter -> rights.refusal(starter, call.tool())))
          .ifPresent(reason -> refused.put(call.callId(), reason));
    }
    if (!refused.isEmpty() && tooDeep.isEmpty()) {
      LOG.info("AGENTLOOP-105 run {} acts for {}: calls of agents not run: {}", runId, user.orElse(null),
          refused.values());
    }
    return refused;
  }

  /**
   * Why this run may not call agents, or empty: it is {@link AgentDefaults#maxAgentDepth()} agent calls below a
   * top-level run already. Counted along Camunda's super process instances, agents only (a business process that
   * asks an agent adds no depth).
   */
  Optional<String> tooDeep(String runId) {
    RuntimeService runtime = engine.getObject().getRuntimeService();
    int depth = 0;
    ProcessInstance caller = callerOf(runtime, runId);
    while (caller != null && depth <= maxDepth) {
      if (definitions.isAgent(caller.getProcessDefinitionId())) {
        depth++;
      }
      caller = callerOf(runtime, caller.getId());
    }
    return depth < maxDepth ? Optional.empty() : Optional.of("not run: this run was started by another agent's call"
        + " and agents call agents at most " + maxDepth + " deep (agentloop.agent.max-agent-depth); answer with the"
        + " other tools");
  }

  private static ProcessInstance callerOf(RuntimeService runtime, String runId) {
    return runtime.createProcessInstanceQuery().subProcessInstanceId(runId).singleResult();
  }
}
