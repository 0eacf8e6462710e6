package dev.agentloop.internal.agent.loop;

import dev.agentloop.internal.agent.AfterCommit;
import dev.agentloop.internal.agent.ChildRunCannotFinish;
import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.definition.AgentDefinitions;
import dev.agentloop.internal.resilience.Escapes;
import java.util.function.Consumer;
import org.camunda.bpm.engine.delegate.ExecutionListener;
import org.camunda.bpm.engine.impl.persistence.entity.ExecutionEntity;

/**
 * The run-time budget of an agent loop is a boundary timer on the loop ({@code ${maxRunTime}}). When
 * it fires, this listener says why the run left its loop, as the boundary error events do for the
 * other escapes: {@link ReactAgentProcess#ESCAPE_CODE} is {@code BUDGET_EXHAUSTED}. The engine plugin
 * attaches it to every boundary timer of an agent loop.
 *
 * <p>The escape is counted once the timer's transaction commits: a timer job the engine runs again after an
 * optimistic-locking failure is one escape. A run that another agent called does not wait in {@code agentStuck} for
 * a person: it is stopped with the reason after that commit ({@link ChildRunCannotFinish}), so that its caller reads
 * at once that it ran out of time, and goes on.
 */
public class RunTimeRanOut {

  private final Escapes escapes;
  private final AgentDefinitions definitions;
  private final Consumer<Object> events;

  /** @param events where a child that ran out of time is announced, e.g. Spring's event publisher */
  public RunTimeRanOut(Escapes escapes, AgentDefinitions definitions, Consumer<Object> events) {
    this.escapes = escapes;
    this.definitions = definitions;
    this.events = events;
  }

  public ExecutionListener listener() {
    return execution -> {
      String runTime = ReactAgentProcess.MAX_RUN_TIME.get(execution);
      String reason = "The run-time budget of the agent loop (" + (runTime == null ? "maxRunTime" : runTime)
          + ") ran out.";
      execution.setVariable(ReactAgentProcess.ESCAPE_CODE.name(), Escapes.BUDGET_EXHAUSTED);
      execution.setVariable(ReactAgentProcess.ESCAPE_REASON.name(), reason);
      String source = execution.getCurrentActivityId();
      AfterCommit.run(() -> escapes.escaped(Escapes.BUDGET_EXHAUSTED, source));
      ExecutionEntity caller = ((ExecutionEntity) execution).getProcessInstance().getSuperExecution();
      if (caller != null && definitions.isAgent(caller.getProcessDefinitionId())) {
        events.accept(new ChildRunCannotFinish(execution.getProcessInstanceId(), "its run time ("
            + (runTime == null ? "maxRunTime" : runTime) + ") ran out before it answered"));
      }
    };
  }
}
