package dev.agentloop.internal.agent.compose;

import dev.agentloop.internal.agent.AgentStartRights;
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
import dev.agentloop.internal.trace.StepStore;
import dev.agentloop.internal.trace.TreeCharges;
import dev.agentloop.internal.trace.step.Action;
import dev.agentloop.internal.trace.step.Observation;
import java.util.List;
import java.util.Map;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.delegate.ExecutionListener;
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
 * not deeper than {@link AgentDefaults#maxAgentDepth()} below a top-level run, and only where the person the run acts
 * for may start the called agent ({@link AgentCallRefusals}). Thread-safe.
 */
public class ChildRuns implements AgentCalls {

  private final AgentDefinitions definitions;
  private final LoopStateReader reader;
  private final ToolRegistry tools;
  private final AgentCallRefusals refusals;
  private final ParallelChildRuns parallel;
  private final ChildObservations observations;
  private final TreeCharges charges;

  public ChildRuns(AgentDefinitions definitions, LoopStateReader reader, StepStore store, ToolRegistry tools,
      ObjectProvider<ProcessEngine> engine, int maxDepth) {
    this(definitions, reader, store, tools, engine, maxDepth, null, CallerBudgets.NONE, new AgentStartRights(engine));
  }

  /**
   * @param charges where a run that calls agents keeps what they spend, charged as they spend it ({@code null}:
   *     nothing is kept, for code that builds this by hand)
   * @param callers where the calls of agents are charged when other agents' calls led to the run that makes them
   * @param rights whether the person a run acts for may start the agent it calls
   */
  public ChildRuns(AgentDefinitions definitions, LoopStateReader reader, StepStore store, ToolRegistry tools,
      ObjectProvider<ProcessEngine> engine, int maxDepth, TreeCharges charges, CallerBudgets callers,
      AgentStartRights rights) {
    this.definitions = definitions;
    this.reader = reader;
    this.tools = tools;
    this.refusals = new AgentCallRefusals(definitions, engine, maxDepth, rights);
    this.observations = new ChildObservations(definitions, reader, store, callers, this);
    this.parallel = new ParallelChildRuns(observations);
    this.charges = charges;
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

  /** Why calls of agents may not run, by call id: see {@link AgentCallRefusals}. */
  @Override
  public Map<String, String> refusals(String runId, List<Action> calls) {
    return refusals.of(runId, calls);
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
      observations.observe(execution.getProcessInstanceId(), execution.getProcessDefinitionId(), callId, childRun);
    };
  }

  /**
   * The observation of a call of an agent that this child run answers: its final answer, or why there is none; for
   * a child run started again after an edit, whose answer replaces the one the call had.
   */
  public Observation observationOf(Observation call, String childRun, AgentSettings settings) {
    return observations.observationOf(call, childRun, settings);
  }
}
