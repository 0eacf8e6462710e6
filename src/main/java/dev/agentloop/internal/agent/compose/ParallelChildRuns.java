package dev.agentloop.internal.agent.compose;

import dev.agentloop.internal.agent.ReactAgentProcess;
import java.util.HashMap;
import java.util.Map;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.ExecutionListener;
import org.camunda.bpm.engine.impl.bpmn.behavior.MultiInstanceActivityBehavior;
import org.camunda.bpm.engine.impl.persistence.entity.ExecutionEntity;
import org.camunda.bpm.engine.impl.pvm.process.ActivityImpl;
import org.camunda.bpm.engine.impl.pvm.process.ScopeImpl;

/**
 * The calls of agents of one turn, run side by side: {@code callAgent} as a parallel multi-instance call activity over
 * {@link ReactAgentProcess#AGENT_CALLS} (element variable {@link ReactAgentProcess#CALL_ID}) starts one child run per
 * call at once; each waits in its own execution of the engine, so nothing holds a thread, and the engine keeps them
 * through a restart.
 *
 * <p>A child that ends leaves its run id with the multi-instance body ({@link #instanceEndListener()}); when the last
 * has ended, {@link #allEndedListener()} writes the observations of all the calls in the order the model made them,
 * whichever child answered first, so that the model reads them as it asked. A child's end is written in a transaction
 * of the caller's own (the diagram marks the instances asynchronous after), so that two children ending at the same
 * moment conflict in the caller's jobs, which the engine runs again, never in a reviewer's or a worker's completion.
 * Thread-safe.
 */
public class ParallelChildRuns {

  /** Camunda's own local variable of a multi-instance body: how many instances it started. */
  private static final String NR_OF_INSTANCES = "nrOfInstances";

  private final ChildObservations observations;

  ParallelChildRuns(ChildObservations observations) {
    this.observations = observations;
  }

  /** Whether an activity whose flow scope is {@code scope} is the inner activity of a multi-instance body. */
  public static boolean isInstanceOfMultiInstance(ScopeImpl scope) {
    return scope instanceof ActivityImpl body && body.getActivityBehavior() instanceof MultiInstanceActivityBehavior;
  }

  /** The call an instance of a multi-instance {@code callAgent} runs, or {@code null} for a single one. */
  static String callOf(DelegateExecution execution) {
    ActivityImpl activity = ((ExecutionEntity) execution).getActivity();
    return activity != null && isInstanceOfMultiInstance(activity.getFlowScope())
        ? ReactAgentProcess.CALL_ID.get(execution) : null;
  }

  /** Keeps the run that answered this instance's call with the multi-instance body, until all have ended. */
  public ExecutionListener instanceEndListener() {
    return execution -> {
      if (execution.isCanceled()) {
        return; // cancelled by an edit, an escape or a stop: the child run was cancelled with it
      }
      String callId = ReactAgentProcess.CALL_ID.get(execution);
      String childRun = ReactAgentProcess.CHILD_RUN_ID.get(execution);
      body((ExecutionEntity) execution).setVariableLocal(ReactAgentProcess.childRunOf(callId), childRun);
    };
  }

  /**
   * Writes the observations of all the calls, in their order, once every child run has ended. Cancelled before (the
   * run left its loop: its time ran out, its tree's budget was spent), it keeps the answers already in with the run
   * ({@link ReactAgentProcess#ANSWERS_IN}), for the observations written when its open calls are closed.
   */
  public ExecutionListener allEndedListener() {
    return execution -> {
      Map<String, String> childRuns = answered(execution);
      if (execution.isCanceled()) {
        String in = AnswersIn.write(childRuns);
        if (!in.isEmpty()) {
          ReactAgentProcess.ANSWERS_IN.set(((ExecutionEntity) execution).getProcessInstance(), in);
        }
        return;
      }
      observations.observeAll(execution.getProcessInstanceId(), execution.getProcessDefinitionId(), childRuns);
    };
  }

  /** The runs that answered calls of the body so far, by call id; a {@code null} run ended without saying. */
  private static Map<String, String> answered(DelegateExecution execution) {
    Map<String, String> childRuns = new HashMap<>();
    String prefix = ReactAgentProcess.childRunOf("");
    execution.getVariablesLocal().forEach((name, value) -> {
      if (name.startsWith(prefix)) {
        childRuns.put(name.substring(prefix.length()), value == null ? null : String.valueOf(value));
      }
    });
    return childRuns;
  }

  /** The execution of the multi-instance body: the nearest one up that holds the engine's instance counters. */
  private static ExecutionEntity body(ExecutionEntity instance) {
    ExecutionEntity execution = instance;
    while (execution != null && !execution.hasVariableLocal(NR_OF_INSTANCES)) {
      execution = execution.getParent();
    }
    if (execution == null) {
      throw new IllegalStateException("execution " + instance.getId() + " of '" + instance.getActivityId()
          + "' is no instance of a multi-instance activity");
    }
    return execution;
  }
}
