package dev.agentloop.internal.agent.loop;

import dev.agentloop.internal.agent.AfterCommit;
import dev.agentloop.internal.agent.Steps;
import dev.agentloop.internal.agent.definition.AgentDefinitions;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.resilience.EscapeException;
import dev.agentloop.internal.resilience.Escapes;
import dev.agentloop.internal.trace.Appended;
import dev.agentloop.internal.trace.DecisionLog;
import dev.agentloop.internal.trace.NewStep;
import dev.agentloop.internal.trace.StepStore;
import dev.agentloop.internal.trace.Usage;
import dev.agentloop.internal.worker.TaskResult;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.camunda.bpm.engine.externaltask.LockedExternalTask;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How the agent's handlers end a task: their steps are written in the transaction that completes
 * it, and the state after them is handed on to the run's next task; or the run leaves its loop by a
 * BPMN error, with the steps that must not be lost (the observations of calls not run). Package
 * {@code resilience} decides whether a failure escapes and with which error; the worker's result for
 * it is made here, so that resilience and worker stay independent of each other.
 */
public final class TaskOutcomes {

  private static final Logger LOG = LoggerFactory.getLogger(TaskOutcomes.class);

  /** Why the steps of a reply that came after its run had left the loop are off the active path. */
  static final String LATE_REPLY = "the model replied after the run had left its loop (its run-time budget ran out,"
      + " or a person stopped or moved it); kept for its cost, not used";

  /** Why the observations of tool calls that ended after their run had left the loop are off the active path. */
  static final String LATE_OBSERVATION = "the tool answered after the run had left its loop (its run-time budget ran"
      + " out, or a person stopped or moved it); kept for its cost, not used";

  private final AgentDefinitions definitions;
  private final StepStore store;
  private final DecisionLog decisions;
  private final Escapes escapes;
  private final CostMeter costs;
  private final CallerBudgets callers;

  public TaskOutcomes(AgentDefinitions definitions, StepStore store, DecisionLog decisions, Escapes escapes,
      CostMeter costs) {
    this(definitions, store, decisions, escapes, costs, CallerBudgets.NONE);
  }

  /** @param callers where the tokens of a run's replies are charged, when other agents' calls led to it */
  public TaskOutcomes(AgentDefinitions definitions, StepStore store, DecisionLog decisions, Escapes escapes,
      CostMeter costs, CallerBudgets callers) {
    this.definitions = definitions;
    this.store = store;
    this.decisions = decisions;
    this.escapes = escapes;
    this.costs = costs;
    this.callers = callers;
  }

  /** The task completes with these variables after the steps are written. */
  TaskResult<LoopState> complete(LoopState state, Written written, Map<String, Object> variables,
      AgentSettings settings) {
    return new TaskResult.Complete<>(variables, write(state, written, settings), keepLate(state, written));
  }

  /**
   * The BPMN error of the escape; for a diagram without the escape route, the escape is thrown: a
   * technical failure (retries, then an incident).
   */
  TaskResult<LoopState> escape(LockedExternalTask task, String topic, EscapeException escape, LoopState state,
      Written written, AgentSettings settings) {
    if (!definitions.catches(task.getProcessDefinitionId(), Escapes.errorCode(escape.reason()))) {
      throw escape;
    }
    Escapes.BpmnError error = escapes.toBpmnError(escape).orElseThrow();
    Supplier<LoopState> write = write(state, written, settings);
    // counted with the completion that raises it: a completion that rolls back and runs again is one escape
    return new TaskResult.Escape<>(error.code(), error.message(), Map.of(), () -> {
      AfterCommit.run(() -> escapes.escaped(error.code(), topic));
      return write.get();
    }, keepLate(state, written));
  }

  /**
   * A model call or tool calls whose run left the loop while they were under way (its run-time budget fired, a
   * person stopped it): what the model wrote, or what the tools answered, is kept off the active path with its cost,
   * since it was paid for (a tool call counts as the run's whether or not its observation is used); where the run was
   * written since (a person's edit), only the cost counts. The runs that called this one were charged the calls
   * before they went out; a reply's tokens are charged to them now.
   */
  private Runnable keepLate(LoopState state, Written written) {
    Usage usage = written.usage();
    if (usage.modelCalls() == 0 && usage.toolCalls() == 0 || written.steps().isEmpty()) {
      return TaskResult.NOTHING;
    }
    boolean reply = usage.modelCalls() > 0;
    return () -> {
      boolean kept = store.keepLate(state.head(), written.steps(), usage, reply ? LATE_REPLY : LATE_OBSERVATION);
      callers.charge(state.run(), 0, 0, usage.tokens());
      LOG.info("run {}: {} after the run had left its loop or moved on; {} with the cost of {}", state.run().runId(),
          reply ? "the model replied" : "the tools answered",
          kept ? "kept off the active path" : "not kept (the run was written since), counted",
          reply ? "the call" : usage.toolCalls() + " tool calls");
    };
  }

  private Supplier<LoopState> write(LoopState state, Written written, AgentSettings settings) {
    // the calls were made (and paid for) whether or not their steps commit; counted here, outside the
    // transaction that a retry of the task may run again
    costs.record(state.run().agentKey(), written.usage());
    if (written.steps().isEmpty()) {
      return () -> state;
    }
    return () -> {
      Appended appended = store.append(state.head(), written.steps(), written.usage());
      // what the reply cost in tokens counts against the budgets of the runs that called this one too
      callers.charge(state.run(), 0, 0, written.usage().tokens());
      if (written.autoAccepted() != null) {
        decisions.record(state.run().runId(), appended.head().headStep(), ReviewGate.ACCEPT.value(),
            Steps.AGENTLOOP, "accepted automatically (" + written.autoAccepted() + ")");
      }
      return state.advance(appended, written.usage(), settings.pathStepsToRead());
    };
  }

  /**
   * The steps a task adds to the trace, and what it cost.
   *
   * @param autoAccepted the setting by which the agent accepts the last of them (a plan or an answer)
   *     without review, recorded as AgentLoop's decision on it; {@code null} when a person decides
   */
  record Written(List<NewStep> steps, Usage usage, String autoAccepted) {

    static final Written NOTHING = new Written(List.of(), Usage.NONE);

    Written {
      steps = List.copyOf(steps);
    }

    Written(List<NewStep> steps, Usage usage) {
      this(steps, usage, null);
    }
  }
}
