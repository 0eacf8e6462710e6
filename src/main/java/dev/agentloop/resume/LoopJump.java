package dev.agentloop.resume;

import dev.agentloop.agent.ReactAgentProcess;
import java.util.Map;
import org.camunda.bpm.engine.RuntimeService;
import org.camunda.bpm.engine.runtime.ActivityInstance;
import org.camunda.bpm.engine.runtime.ProcessInstanceModificationInstantiationBuilder;
import org.camunda.bpm.engine.runtime.TransitionInstance;

/**
 * Moves a waiting or working run to an element of its agent loop by process instance modification:
 * whatever is active (a task of the loop, a person's task, a timer, an external task a worker is
 * busy with) is cancelled, and the run starts before {@code think}, {@code act},
 * {@code approveAction} or {@code askHuman}. The agent loop itself stays when it is active, so its
 * boundary events (run-time budget, escapes) keep their state; it is entered anew otherwise.
 *
 * <p>Runs in the caller's transaction, always from outside the instance's own execution (Camunda
 * warns against modifying an instance from within it). A worker still busy with a cancelled task
 * finds it gone when it completes, and its result is dropped.
 */
class LoopJump {

  private final RuntimeService runtime;

  LoopJump(RuntimeService runtime) {
    this.runtime = runtime;
  }

  void to(String runId, Continuation target, Map<String, Object> variables) {
    ActivityInstance root = runtime.getActivityInstance(runId);
    if (root == null) {
      throw new ResumeConflictException("run " + runId + " has ended meanwhile; restart it from a step");
    }
    ActivityInstance loop = null;
    for (ActivityInstance child : root.getChildActivityInstances()) {
      if (child.getActivityId().equals(ReactAgentProcess.AGENT_LOOP)) {
        loop = child;
      }
    }
    // start first: cancelling the last active element before would end the whole instance
    ProcessInstanceModificationInstantiationBuilder modification = loop == null
        ? runtime.createProcessInstanceModification(runId).startBeforeActivity(target.elementId())
        : runtime.createProcessInstanceModification(runId).startBeforeActivity(target.elementId(), loop.getId());
    modification.setVariables(variables);
    cancelChildren(root, loop, modification);
    modification.execute(false, false);
  }

  /** Cancels what is active below {@code scope}; of the loop, only what is inside it. */
  private static void cancelChildren(ActivityInstance scope, ActivityInstance loop,
      ProcessInstanceModificationInstantiationBuilder modification) {
    for (ActivityInstance active : scope.getChildActivityInstances()) {
      if (active == loop) {
        cancelChildren(loop, null, modification);
      } else {
        modification.cancelActivityInstance(active.getId());
      }
    }
    for (TransitionInstance waiting : scope.getChildTransitionInstances()) {
      modification.cancelTransitionInstance(waiting.getId());
    }
  }
}
