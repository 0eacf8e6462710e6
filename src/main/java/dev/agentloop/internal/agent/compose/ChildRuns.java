package dev.agentloop.internal.agent.compose;

import dev.agentloop.internal.agent.AgentStartRights;
import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.definition.AgentAsTool;
import dev.agentloop.internal.agent.definition.AgentDefaults;
import dev.agentloop.internal.agent.definition.AgentDefinitions;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.agent.loop.LoopState;
import dev.agentloop.internal.agent.loop.LoopStateReader;
import dev.agentloop.internal.agent.loop.Turn;
import dev.agentloop.api.RunStatus;
import dev.agentloop.internal.tool.ToolRegistry;
import dev.agentloop.internal.trace.NewStep;
import dev.agentloop.internal.trace.RunRecord;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.StepKind;
import dev.agentloop.internal.trace.StepStore;
import dev.agentloop.internal.trace.Usage;
import dev.agentloop.internal.trace.step.Action;
import dev.agentloop.internal.trace.step.FinalAnswer;
import dev.agentloop.internal.trace.step.Observation;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.RuntimeService;
import org.camunda.bpm.engine.delegate.ExecutionListener;
import org.camunda.bpm.engine.runtime.ProcessInstance;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;

/**
 * The calls of a turn that other agents answer, and both ends of one such call in the diagram: a child run.
 *
 * <p>{@code act} leaves calls of agents open; the diagram then takes the call activity {@code callAgent}: as a parallel
 * multi-instance activity, once for all the pending calls at the same time ({@link ParallelChildRuns}), or, drawn as a
 * single activity, once per pending call, each time back through {@code act}, the way calls of remote tools go. When {@code callAgent} starts,
 * {@link #startListener()} puts the first pending call into its local variables: {@code callId}, {@code tool} (the
 * called agent's key, which the activity's {@code calledElement="${tool}"} reads) and {@code agentQuestion} (mapped
 * into the child's {@code question}). The child is a run like any other — its reviews in Tasklist, its trace, its
 * budgets, whose use counts against the caller's budgets too — and when it ends, its id comes back through the output mapping {@code runId → childRunId}, and
 * {@link #endListener()} writes the call's observation from the child's trace: its answer, or why there is none
 * (rejected, stopped). The observation links to the child run ({@code childRun}), and the child's run record knows
 * its caller through Camunda's super process instance.
 *
 * <p>Calls of agents run only where the agent's {@code allowedTools} name the agent (a {@code *} offers no agents),
 * not deeper than {@link AgentDefaults#maxAgentDepth()} below a top-level run, and only where the person the run acts
 * for may start the called agent ({@link #refusals}). Thread-safe.
 */
public class ChildRuns {

  private static final Logger LOG = LoggerFactory.getLogger(ChildRuns.class);

  private final AgentDefinitions definitions;
  private final LoopStateReader reader;
  private final StepStore store;
  private final ToolRegistry tools;
  private final ObjectProvider<ProcessEngine> engine;
  private final int maxDepth;
  private final ParallelChildRuns parallel;
  private final AgentStartRights rights;

  public ChildRuns(AgentDefinitions definitions, LoopStateReader reader, StepStore store, ToolRegistry tools,
      ObjectProvider<ProcessEngine> engine, int maxDepth, AgentStartRights rights) {
    this.rights = rights;
    this.definitions = definitions;
    this.reader = reader;
    this.store = store;
    this.tools = tools;
    this.engine = engine;
    this.maxDepth = maxDepth;
    this.parallel = new ParallelChildRuns(this);
  }

  /** The listeners of a parallel multi-instance {@code callAgent}, which runs the calls of a turn side by side. */
  public ParallelChildRuns parallel() {
    return parallel;
  }

  /**
   * Whether the agent calls this tool as another agent: it is an agent, and the agent's allowedTools name it. Asked
   * of the registry, which answers a fixed tool's name (calculator…) at once: the agents' own look-up reads the
   * deployed agents again for every name it does not know, which act must not do for each call of a turn.
   */
  boolean callsAgent(String tool, AgentSettings settings) {
    return settings.allowedTools().contains(tool) && tools.find(tool).orElse(null) instanceof AgentAsTool;
  }

  /**
   * The calls of the turn that wait for a child run, in the order the model made them, as they are to run: calls of
   * agents the agent names, not rejected, with arguments that fit (a question).
   */
  public List<Action> pending(Turn turn, AgentSettings settings) {
    return turn.open().stream()
        .filter(call -> !turn.rejected(call))
        .map(turn::asRun)
        .filter(call -> callsAgent(call.tool(), settings)
            && tools.refusal(call.tool(), call.argumentsAsWritten(), settings::allows).isEmpty())
        .toList();
  }

  /**
   * Why calls of agents may not run, by call id: every call where this run is too deep ({@link #tooDeep}); each call of
   * an agent that the person this run acts for may not start ({@link AgentStartRights}). A call activity starts its
   * child as the engine, so without this a child would run, and its answer land in this run's trace, where its
   * starter could not have started it.
   */
  public Map<String, String> refusals(String runId, List<Action> calls) {
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
  public Optional<String> tooDeep(String runId) {
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

  /**
   * Puts a pending call of an agent into the starting {@code callAgent}'s local variables: in a parallel
   * multi-instance {@code callAgent}, the call its element variable {@code callId} names; else the first one.
   */
  public ExecutionListener startListener() {
    return execution -> {
      AgentSettings settings = definitions.settings(execution.getProcessDefinitionId());
      LoopState state = reader.read(execution.getProcessInstanceId(), settings.pathStepsToRead());
      String named = ParallelChildRuns.callOf(execution);
      Action call = pending(state.turn(), settings).stream()
          .filter(pending -> named == null || pending.callId().equals(named))
          .findFirst().orElseThrow(() -> new IllegalStateException(
          "run " + execution.getProcessInstanceId() + " has no call of an agent waiting" + (named == null ? "" : " with"
              + " id " + named) + ": '" + execution.getCurrentActivityId() + "' must only be reached from act, when it"
              + " routes to agent calls"));
      execution.setVariableLocal(ReactAgentProcess.CALL_ID.name(), call.callId());
      execution.setVariableLocal(ReactAgentProcess.TOOL.name(), call.tool());
      ReactAgentProcess.AGENT_QUESTION.setLocal(execution, call.arguments().path(AgentAsTool.QUESTION).asText());
    };
  }

  /** Writes what the child run came to as the call's observation, linked to the child run. */
  public ExecutionListener endListener() {
    return execution -> {
      if (execution.isCanceled()) {
        return; // cancelled by an edit, an escape or a stop: the child run was cancelled with it
      }
      String callId = ReactAgentProcess.CALL_ID.get(execution);
      String childRun = ReactAgentProcess.CHILD_RUN_ID.get(execution);
      if (execution.hasVariable(ReactAgentProcess.CHILD_RUN_ID.name())) {
        execution.removeVariable(ReactAgentProcess.CHILD_RUN_ID.name());
      }
      AgentSettings settings = definitions.settings(execution.getProcessDefinitionId());
      LoopState state = reader.read(execution.getProcessInstanceId(), settings.pathStepsToRead());
      Optional<Action> call = pending(state.turn(), settings).stream().filter(a -> a.callId().equals(callId)).findFirst();
      if (call.isEmpty()) {
        LOG.info("call {} of run {} is observed already; the answer of run {} is dropped", callId,
            execution.getProcessInstanceId(), childRun);
        return;
      }
      Observation observation = observation(call.get(), childRun, settings).ofChildRun(childRun);
      store.append(state.head(), List.of(new NewStep(observation, call.get().tool())), usage(childRun));
    };
  }

  /**
   * Writes the observations of calls whose child runs have ended, in the order the model made the calls, with one
   * append; calls without an answering run in {@code childRuns} stay open.
   *
   * @param childRuns the answering run of each call id; a {@code null} run is a child that ended without saying
   */
  void observeAll(String runId, String processDefinitionId, Map<String, String> childRuns) {
    AgentSettings settings = definitions.settings(processDefinitionId);
    LoopState state = reader.read(runId, settings.pathStepsToRead());
    List<NewStep> steps = new ArrayList<>();
    Usage usage = Usage.NONE;
    for (Action call : pending(state.turn(), settings)) {
      if (childRuns.containsKey(call.callId())) {
        String childRun = childRuns.get(call.callId());
        steps.add(new NewStep(observation(call, childRun, settings).ofChildRun(childRun), call.tool()));
        Usage used = usage(childRun);
        usage = new Usage(usage.modelCalls() + used.modelCalls(), usage.toolCalls() + used.toolCalls(),
            usage.tokens() + used.tokens());
      }
    }
    if (steps.size() < childRuns.size()) {
      LOG.info("{} of the calls of run {} answered by {} are observed already; their answers are dropped",
          childRuns.size() - steps.size(), runId, childRuns.values());
    }
    if (!steps.isEmpty()) {
      store.append(state.head(), steps, usage);
    }
  }

  /**
   * The call counts as one tool call of this run, and what the child run used (its model calls, tool calls and
   * tokens, its own children's included) counts against this run's budgets too: a coordinator cannot spend more
   * through its sub-agents than its budgets allow.
   */
  private Usage usage(String childRun) {
    if (childRun == null) {
      return Usage.toolCall();
    }
    RunRecord child = store.run(childRun);
    return new Usage(child.modelCalls(), 1 + child.toolCalls(), child.tokens());
  }

  /**
   * The observation of a call of an agent that this child run answers: its final answer, or why there is none; for
   * a child run started again after an edit, whose answer replaces the one the call had.
   */
  public Observation observationOf(Observation call, String childRun, AgentSettings settings) {
    Action action = new Action(call.callId(), call.tool(), null, null, null);
    return observation(action, childRun, settings).ofChildRun(childRun);
  }

  private Observation observation(Action call, String childRun, AgentSettings settings) {
    if (childRun == null) {
      return Observation.error(call, "the agent '" + call.tool() + "' ended without saying which run answered: its"
          + " diagram's end events must be AgentLoop's (answered, rejected, stopped)");
    }
    RunRecord run = store.run(childRun);
    String reason = run.statusReason() == null || run.statusReason().isBlank() ? "" : ": " + run.statusReason();
    if (run.status() == RunStatus.REJECTED) {
      return Observation.error(call, "the agent '" + call.tool() + "' did not answer: a person rejected its plan"
          + reason, "rejected");
    }
    if (run.status() == RunStatus.STOPPED) {
      return Observation.error(call, "the agent '" + call.tool() + "' did not answer: its run was stopped" + reason,
          "stopped");
    }
    String answer = finalAnswer(childRun);
    int limit = settings.maxStepChars();
    return Observation.result(call, answer.length() <= limit ? answer
        : answer.substring(0, limit) + "\n[cut: " + (answer.length() - limit) + " more characters]");
  }

  private String finalAnswer(String runId) {
    List<Step> path = store.activePath(runId);
    for (int i = path.size() - 1; i >= 0; i--) {
      if (path.get(i).kind() == StepKind.FINAL_ANSWER) {
        return ((FinalAnswer) path.get(i).content()).text();
      }
    }
    return "";
  }
}
