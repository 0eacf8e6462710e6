package dev.agentloop.internal.agent.loop;

import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.resilience.Escapes;
import org.camunda.bpm.engine.delegate.ExecutionListener;

/**
 * The run-time budget of an agent loop is a boundary timer on the loop ({@code ${maxRunTime}}). When
 * it fires, this listener says why the run left its loop, as the boundary error events do for the
 * other escapes: {@link ReactAgentProcess#ESCAPE_CODE} is {@code BUDGET_EXHAUSTED}. The engine plugin
 * attaches it to every boundary timer of an agent loop.
 */
public class RunTimeRanOut {

  private final Escapes escapes;

  public RunTimeRanOut(Escapes escapes) {
    this.escapes = escapes;
  }

  public ExecutionListener listener() {
    return execution -> {
      String runTime = ReactAgentProcess.MAX_RUN_TIME.get(execution);
      execution.setVariable(ReactAgentProcess.ESCAPE_CODE.name(), Escapes.BUDGET_EXHAUSTED);
      execution.setVariable(ReactAgentProcess.ESCAPE_REASON.name(), "The run-time budget of the agent loop ("
          + (runTime == null ? "maxRunTime" : runTime) + ") ran out.");
      escapes.timerFired(Escapes.BUDGET_EXHAUSTED, execution.getCurrentActivityId());
    };
  }
}
