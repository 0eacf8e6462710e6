package dev.agentloop.internal.resume;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.camunda.bpm.engine.RepositoryService;
import org.camunda.bpm.engine.RuntimeService;
import org.camunda.bpm.engine.runtime.ActivityInstance;
import org.camunda.bpm.engine.runtime.Incident;
import org.camunda.bpm.engine.runtime.ProcessInstance;
import org.camunda.bpm.engine.runtime.TransitionInstance;

/**
 * Where a run's process instance is in the engine, as a migration needs to know it: its definition and version,
 * what is active in it (every scope it is inside and every element it waits at or works in), between which steps
 * it is (an asynchronous continuation), its incidents, and whether another process called it.
 *
 * @param scopes the activity instances below the process instance, scopes and leaves, parents first
 * @param between the elements the run is between steps at (transition instances): it is busy there
 */
record RunPosition(String definitionId, int version, List<ActivityInstance> scopes, List<TransitionInstance> between,
    List<Incident> incidents, boolean called) {

  RunPosition {
    scopes = List.copyOf(scopes);
    between = List.copyOf(between);
    incidents = List.copyOf(incidents);
  }

  /** Where the run is now; empty where its instance has ended. Call it without the user's authorization checks. */
  static Optional<RunPosition> of(String runId, RuntimeService runtime, RepositoryService repository) {
    ProcessInstance instance = runtime.createProcessInstanceQuery().processInstanceId(runId).singleResult();
    ActivityInstance root = instance == null ? null : runtime.getActivityInstance(runId);
    if (root == null) {
      return Optional.empty();
    }
    List<ActivityInstance> scopes = new ArrayList<>();
    List<TransitionInstance> between = new ArrayList<>();
    collect(root, scopes, between);
    return Optional.of(new RunPosition(instance.getProcessDefinitionId(),
        repository.getProcessDefinition(instance.getProcessDefinitionId()).getVersion(), scopes, between,
        runtime.createIncidentQuery().processInstanceId(runId).list(),
        runtime.createProcessInstanceQuery().subProcessInstanceId(runId).count() > 0));
  }

  /** The elements the run waits at or works in: the active activity instances without children. */
  List<ActivityInstance> leaves() {
    return scopes.stream().filter(scope -> scope.getChildActivityInstances().length == 0
        && scope.getChildTransitionInstances().length == 0).toList();
  }

  private static void collect(ActivityInstance scope, List<ActivityInstance> scopes, List<TransitionInstance> between) {
    for (ActivityInstance child : scope.getChildActivityInstances()) {
      scopes.add(child);
      collect(child, scopes, between);
    }
    between.addAll(List.of(scope.getChildTransitionInstances()));
  }
}
