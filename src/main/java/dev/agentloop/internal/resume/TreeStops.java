package dev.agentloop.internal.resume;

import dev.agentloop.internal.agent.ChildRunCannotFinish;
import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.Steps;
import dev.agentloop.internal.agent.loop.CallerBudgetSpent;
import dev.agentloop.internal.resilience.Escapes;
import dev.agentloop.internal.trace.RunRecord;
import dev.agentloop.internal.trace.StepStore;
import org.camunda.bpm.engine.RuntimeService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What AgentLoop itself changes in a tree of agents that call agents, through the same door as a person's changes:
 * a run whose tree spent its budget goes to {@code agentStuck} naming the run that asked for more, and the runs it
 * called stop with it (in words); a child run that cannot finish by itself (it failed, it ran out of time) is stopped
 * with the reason, so that its caller observes that at once and goes on. Each runs in a transaction of its own, after
 * the one that found it, from outside the run's own execution. Thread-safe.
 */
final class TreeStops {

  private static final Logger LOG = LoggerFactory.getLogger(TreeStops.class);

  private final RuntimeService runtime;
  private final StepStore store;
  private final LoopJump jump;
  private final RunChanges changes;
  private final RunStops stops;
  private final Escapes escapes;

  TreeStops(RuntimeService runtime, StepStore store, LoopJump jump, RunChanges changes, RunStops stops,
      Escapes escapes) {
    this.runtime = runtime;
    this.store = store;
    this.jump = jump;
    this.changes = changes;
    this.stops = stops;
    this.escapes = escapes;
  }

  /**
   * The caller's tree has spent its budget: the caller leaves its loop for {@code agentStuck}, its calls of agents
   * cancelled with their runs, in a transaction of its own; counted as an escape once that committed. Nothing changes
   * when it has left the calls meanwhile (another child announced the same).
   */
  void budgetSpent(CallerBudgetSpent spent) {
    boolean moved;
    try {
      moved = moveToStuck(spent);
    } catch (RuntimeException e) {
      LOG.warn("AGENTLOOP-302 the budget of run {} is spent, but it could not be moved to agentStuck: {}. The run {}"
          + " that asked for more waits in its own agentStuck instead; stop it there, or stop run {}",
          spent.callerRun(), e.getMessage(), spent.byRun(), spent.callerRun());
      return;
    }
    if (moved) {
      escapes.escaped(Escapes.BUDGET_EXHAUSTED, ReactAgentProcess.CALL_AGENT);
      LOG.info("run {} left its agent loop for agentStuck: {}", spent.callerRun(), spent.reason());
    }
  }

  private boolean moveToStuck(CallerBudgetSpent spent) {
    return changes.applyAlone(spent.callerRun(), () -> {
      RunRecord run = store.lockRun(spent.callerRun());
      if (run.status().isFinished() || !jump.waitsForAgents(run.runId())) {
        return false;
      }
      runtime.setVariables(run.runId(), ReactAgentProcess.CALLS_STOPPED.with("the budget of run " + run.runId()
          + " and the agents it called is used up (" + spent.what() + ")"));
      jump.toAgentStuck(run.runId(), Escapes.BUDGET_EXHAUSTED, spent.reason());
      runtime.removeVariable(run.runId(), ReactAgentProcess.CALLS_STOPPED.name());
      return true;
    });
  }

  /** A child run that cannot finish is stopped with why, through its diagram's {@code stopped} end event. */
  void cannotFinish(ChildRunCannotFinish child) {
    try {
      stops.stop(child.childRun(), child.reason(), Steps.AGENTLOOP);
    } catch (ResumeConflictException e) {
      LOG.warn("AGENTLOOP-301 run {} cannot finish ({}), but it could not be stopped for the run that called it: {}."
          + " Stop it in Cockpit or with POST /api/runs/{}/stop; until then its caller waits for it, at most its own"
          + " run time", child.childRun(), child.reason(), e.getMessage(), child.childRun());
    }
  }
}
