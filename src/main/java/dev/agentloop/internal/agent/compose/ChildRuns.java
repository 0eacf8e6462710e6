package dev.agentloop.internal.agent.compose;

import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.definition.AgentAsTool;
import dev.agentloop.internal.agent.definition.AgentDefaults;
import dev.agentloop.internal.agent.definition.AgentDefinitions;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.agent.loop.AgentCalls;
import dev.agentloop.internal.agent.loop.CallerBudgets;
import dev.agentloop.internal.agent.loop.LoopState;
import dev.agentloop.internal.agent.loop.LoopStateReader;
import dev.agentloop.internal.agent.loop.Turn;
import dev.agentloop.internal.budget.Spending;
import dev.agentloop.internal.tool.ToolRegistry;
import dev.agentloop.internal.trace.NewStep;
import dev.agentloop.internal.trace.StepStore;
import dev.agentloop.internal.trace.TreeCharges;
import dev.agentloop.internal.trace.Usage;
import dev.agentloop.internal.trace.step.Action;
import dev.agentloop.internal.trace.step.Observation;
import java.util.ArrayList;
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
 * budget, which is at most what the caller has left, and whose use counts against the caller's budget as it happens
 * ({@link TreeCharges}) — and when it ends, its id comes back through the output mapping {@code runId → childRunId},
 * and {@link #endListener()} writes the call's observation from the child's trace: its answer, or why there is none
 * (rejected, stopped, failed, out of time: {@link ChildAnswers}). The observation links to the child run
 * ({@code childRun}), and the child's run record knows its caller through Camunda's super process instance.
 *
 * <p>Calls of agents run only where the agent's {@code allowedTools} name the agent (a {@code *} offers no agents),
 * and not deeper than {@link AgentDefaults#maxAgentDepth()} below a top-level run. Thread-safe.
 */
public class ChildRuns implements AgentCalls {

  private static final Logger LOG = LoggerFactory.getLogger(ChildRuns.class);

  private final AgentDefinitions definitions;
  private final LoopStateReader reader;
  private final StepStore store;
  private final ToolRegistry tools;
  private final ObjectProvider<ProcessEngine> engine;
  private final int maxDepth;
  private final ParallelChildRuns parallel;
  private final ChildAnswers answers;
  private final TreeCharges charges;
  private final CallerBudgets callers;

  public ChildRuns(AgentDefinitions definitions, LoopStateReader reader, StepStore store, ToolRegistry tools,
      ObjectProvider<ProcessEngine> engine, int maxDepth) {
    this(definitions, reader, store, tools, engine, maxDepth, null, CallerBudgets.NONE);
  }

  /**
   * @param charges where a run that calls agents keeps what they spend, charged as they spend it ({@code null}:
   *     nothing is kept, for code that builds this by hand)
   * @param callers where the calls of agents are charged when other agents' calls led to the run that makes them
   */
  public ChildRuns(AgentDefinitions definitions, LoopStateReader reader, StepStore store, ToolRegistry tools,
      ObjectProvider<ProcessEngine> engine, int maxDepth, TreeCharges charges, CallerBudgets callers) {
    this.definitions = definitions;
    this.reader = reader;
    this.store = store;
    this.tools = tools;
    this.engine = engine;
    this.maxDepth = maxDepth;
    this.parallel = new ParallelChildRuns(this);
    this.answers = new ChildAnswers(store);
    this.charges = charges;
    this.callers = callers;
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
  @Override
  public List<Action> pending(Turn turn, AgentSettings settings) {
    return turn.open().stream()
        .filter(call -> !turn.rejected(call))
        .map(turn::asRun)
        .filter(call -> callsAgent(call.tool(), settings)
            && tools.refusal(call.tool(), call.argumentsAsWritten(), settings::allows).isEmpty())
        .toList();
  }

  /**
   * Why this run may not call agents, or empty: it is {@link AgentDefaults#maxAgentDepth()} agent calls below a
   * top-level run already. Counted along Camunda's super process instances, agents only (a business process that
   * asks an agent adds no depth).
   */
  @Override
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
      // answers kept from calls cancelled before (their run left its loop) are no longer this turn's
      execution.removeVariable(ReactAgentProcess.ANSWERS_IN.name());
      if (charges != null) {
        // what this run spent and may spend, against which its children are charged as they spend; its calls of
        // agents count as its own tool calls from now on, though they are written when the children end
        int calls = pending(state.turn(), settings).size();
        charges.open(state.run().runId(), state.run().spent().plus(new Spending(0, 0, calls, 0)),
            state.run().budgetOr(settings.budget()));
      }
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
      Observation observation = answers.observation(call.get(), childRun, settings).ofChildRun(childRun);
      // the call is one tool call of this run; what the child spent was charged to this run's tree as it spent it
      store.append(state.head(), List.of(new NewStep(observation, call.get().tool())), Usage.toolCall());
      callers.charge(state.run(), 0, 1, 0);
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
    for (Action call : pending(state.turn(), settings)) {
      if (childRuns.containsKey(call.callId())) {
        String childRun = childRuns.get(call.callId());
        steps.add(new NewStep(answers.observation(call, childRun, settings).ofChildRun(childRun), call.tool()));
      }
    }
    if (steps.size() < childRuns.size()) {
      LOG.info("{} of the calls of run {} answered by {} are observed already; their answers are dropped",
          childRuns.size() - steps.size(), runId, childRuns.values());
    }
    if (!steps.isEmpty()) {
      // each call is one tool call of this run; what the children spent was charged to its tree as they spent it
      store.append(state.head(), steps, new Usage(0, steps.size(), 0));
      callers.charge(state.run(), 0, steps.size(), 0);
    }
  }

  /**
   * The observation of a call of an agent that this child run answers: its final answer, or why there is none; for
   * a child run started again after an edit, whose answer replaces the one the call had.
   */
  public Observation observationOf(Observation call, String childRun, AgentSettings settings) {
    return answers.observationOf(call, childRun, settings);
  }
}
