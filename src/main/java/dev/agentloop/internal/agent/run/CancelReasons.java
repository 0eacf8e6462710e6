package dev.agentloop.internal.agent.run;

import dev.agentloop.internal.agent.ReactAgentProcess;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.impl.persistence.entity.ExecutionEntity;
import org.camunda.bpm.engine.impl.pvm.process.ActivityImpl;

/**
 * Why a cancelled run ended, in words. A run another process called is cancelled with its caller's call: AgentLoop
 * says why where it cancels the call itself ({@link ReactAgentProcess#CALLS_STOPPED}); where a timer of the caller
 * fired, the engine's own reason ("Cancel scope activity Activity(runTimeUsedUp) executed.") becomes what it means,
 * e.g. the caller's run time ran out. A run deleted from Cockpit or the API keeps the reason it was deleted with.
 */
final class CancelReasons {

  /** The engine's reason when a boundary event cancels its scope, naming the event. */
  private static final Pattern SCOPE_CANCELLED =
      Pattern.compile("Cancel scope activity Activity\\((.+)\\) executed\\.");

  private CancelReasons() {}

  static String of(DelegateExecution execution) {
    ExecutionEntity instance = ((ExecutionEntity) execution).getProcessInstance();
    String deleted = execution instanceof ExecutionEntity entity ? entity.getDeleteReason() : null;
    ExecutionEntity caller = instance.getSuperExecution();
    if (caller == null) {
      return deleted;
    }
    String by = "stopped with the call of run " + caller.getProcessInstanceId() + " that started it: ";
    String stopped = ReactAgentProcess.CALLS_STOPPED.get(caller);
    if (stopped != null) {
      return by + stopped;
    }
    Matcher scope = deleted == null ? null : SCOPE_CANCELLED.matcher(deleted);
    if (scope != null && scope.matches()) {
      ActivityImpl event = caller.getProcessDefinition().findActivity(scope.group(1));
      if (isRunTimeBudget(event)) {
        return by + "its run time (" + ReactAgentProcess.MAX_RUN_TIME.get(caller) + ") ran out";
      }
      return by + "it left the call at '" + (event == null || event.getName() == null ? scope.group(1)
          : event.getName()) + "'";
    }
    String callerReason = ReactAgentProcess.STATUS_REASON.get(caller);
    return callerReason != null ? by + callerReason : by + (deleted == null ? "it was cancelled" : deleted);
  }

  /** The boundary timer on an agent loop: the loop's run time. */
  private static boolean isRunTimeBudget(ActivityImpl event) {
    return event != null && "boundaryTimer".equals(event.getProperty("type")) && event.getEventScope() != null
        && ReactAgentProcess.AGENT_LOOP.equals(event.getEventScope().getId());
  }
}
