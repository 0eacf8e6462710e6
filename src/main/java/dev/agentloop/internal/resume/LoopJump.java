package dev.agentloop.internal.resume;

import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.definition.AgentSettings;
import java.util.HashMap;
import java.util.Map;
import org.camunda.bpm.engine.RepositoryService;
import org.camunda.bpm.engine.RuntimeService;
import org.camunda.bpm.engine.runtime.ActivityInstance;
import org.camunda.bpm.engine.runtime.ProcessInstanceModificationBuilder;
import org.camunda.bpm.engine.runtime.ProcessInstanceModificationInstantiationBuilder;
import org.camunda.bpm.engine.runtime.TransitionInstance;
import org.camunda.bpm.model.bpmn.instance.EndEvent;
import org.camunda.bpm.model.bpmn.instance.Process;
import org.camunda.bpm.model.xml.instance.ModelElementInstance;

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
  private final RepositoryService repository;

  LoopJump(RuntimeService runtime, RepositoryService repository) {
    this.runtime = runtime;
    this.repository = repository;
  }

  /** {@code askHuman}'s timer reads its timeout from a transient variable, as when {@code think} routes there. */
  static Map<String, Object> variablesFor(Continuation continuation, AgentSettings settings) {
    return continuation == Continuation.ASK_HUMAN
        ? ReactAgentProcess.ASK_HUMAN_TIMEOUT.transientWith(settings.review().askHumanTimeout().toString())
        : Map.of();
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

  /**
   * Ends the run through {@code endEventId}, an end event of its diagram's top level: whatever is active is
   * cancelled first and the end event entered after, so that the instance ends as completed, with the end event's
   * listeners and the caller's output mappings. A process that called the run (a call activity) continues; it
   * would be deleted with the run if the instance were deleted instead.
   *
   * @return false, changing nothing, when the diagram has no such end event
   */
  boolean end(String runId, String endEventId) {
    ActivityInstance root = runtime.getActivityInstance(runId);
    if (root == null) {
      throw new ResumeConflictException("run " + runId + " has ended meanwhile");
    }
    if (!hasTopLevelEndEvent(root.getProcessDefinitionId(), endEventId)) {
      return false;
    }
    // cancel first: the modification ends the instance as completed only if it has no other activity left when
    // the end event is reached; entering the end event first would leave the cancellations to end it as deleted
    ProcessInstanceModificationBuilder modification = runtime.createProcessInstanceModification(runId);
    for (ActivityInstance active : root.getChildActivityInstances()) {
      modification.cancelActivityInstance(active.getId());
    }
    for (TransitionInstance waiting : root.getChildTransitionInstances()) {
      modification.cancelTransitionInstance(waiting.getId());
    }
    modification.startBeforeActivity(endEventId).execute(false, false);
    return true;
  }

  /** Whether the run waits in its loop's {@code callAgent} for runs it called. */
  boolean waitsForAgents(String runId) {
    ActivityInstance root = runtime.getActivityInstance(runId);
    return root != null && root.getActivityInstances(ReactAgentProcess.CALL_AGENT).length > 0;
  }

  /**
   * Moves the run out of its agent loop to {@code agentStuck}, as a boundary error event would: the loop is cancelled
   * with whatever is active in it (the calls of agents and their child runs among them) and the person's task starts
   * with why ({@code escapeCode}, {@code escapeReason}).
   */
  void toAgentStuck(String runId, String code, String reason) {
    ActivityInstance root = runtime.getActivityInstance(runId);
    if (root == null) {
      throw new ResumeConflictException("run " + runId + " has ended meanwhile");
    }
    Map<String, Object> why = new HashMap<>(ReactAgentProcess.ESCAPE_CODE.with(code));
    why.putAll(ReactAgentProcess.ESCAPE_REASON.with(reason));
    // start first: cancelling the last active element before would end the whole instance
    ProcessInstanceModificationInstantiationBuilder modification = runtime.createProcessInstanceModification(runId)
        .startBeforeActivity(ReactAgentProcess.AGENT_STUCK).setVariables(why);
    for (ActivityInstance loop : root.getActivityInstances(ReactAgentProcess.AGENT_LOOP)) {
      modification.cancelActivityInstance(loop.getId());
    }
    modification.execute(false, false);
  }

  private boolean hasTopLevelEndEvent(String processDefinitionId, String endEventId) {
    ModelElementInstance element = repository.getBpmnModelInstance(processDefinitionId).getModelElementById(endEventId);
    return element instanceof EndEvent && element.getParentElement() instanceof Process;
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
