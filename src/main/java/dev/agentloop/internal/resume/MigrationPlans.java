package dev.agentloop.internal.resume;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.camunda.bpm.engine.RepositoryService;
import org.camunda.bpm.engine.RuntimeService;
import org.camunda.bpm.engine.migration.MigrationInstruction;
import org.camunda.bpm.engine.migration.MigrationInstructionValidationReport;
import org.camunda.bpm.engine.migration.MigrationPlan;
import org.camunda.bpm.engine.migration.MigrationPlanBuilder;
import org.camunda.bpm.engine.migration.MigrationPlanValidationException;

/**
 * The migration plan from one version of an agent to another: Camunda's generated plan (equal ids), plus
 * AgentLoop's mapping of its own elements by their role ({@link AgentElements}) where an analyst gave one another
 * id. A role mapping Camunda refuses (it would move an element out of its scope) is left out, and the elements it
 * would have moved count as gone. Timers keep their due dates (no event trigger is updated): a pending timer
 * carries over as it is. Plans are built once per pair of definitions, which never change once deployed.
 * Thread-safe.
 */
final class MigrationPlans {

  private final RuntimeService runtime;
  private final RepositoryService repository;
  private final Map<String, Plan> plans = new ConcurrentHashMap<>();
  private final Map<String, AgentElements> elements = new ConcurrentHashMap<>();

  MigrationPlans(RuntimeService runtime, RepositoryService repository) {
    this.runtime = runtime;
    this.repository = repository;
  }

  /** A plan and what it maps: source element id to target element id. */
  record Plan(MigrationPlan plan, Map<String, String> mapped) {

    Optional<String> target(String sourceActivityId) {
      return Optional.ofNullable(mapped.get(sourceActivityId));
    }
  }

  /** The plan from one definition to another; call it without the user's authorization checks. */
  Plan plan(String sourceDefinitionId, String targetDefinitionId) {
    return plans.computeIfAbsent(sourceDefinitionId + ">" + targetDefinitionId,
        key -> build(sourceDefinitionId, targetDefinitionId));
  }

  /** The roles of AgentLoop's elements in a definition. */
  AgentElements elements(String definitionId) {
    return elements.computeIfAbsent(definitionId, id -> AgentElements.of(repository.getBpmnModelInstance(id)));
  }

  private Plan build(String source, String target) {
    Map<String, String> byRole = roleMappings(source, target);
    try {
      return plan(source, target, byRole);
    } catch (MigrationPlanValidationException e) {
      Set<String> refused = e.getValidationReport().getInstructionReports().stream()
          .filter(MigrationInstructionValidationReport::hasFailures)
          .map(report -> report.getMigrationInstruction().getSourceActivityId()).collect(Collectors.toSet());
      byRole.keySet().removeAll(refused);
      return plan(source, target, byRole);
    }
  }

  private Plan plan(String source, String target, Map<String, String> byRole) {
    MigrationPlanBuilder builder = runtime.createMigrationPlan(source, target).mapEqualActivities();
    byRole.forEach(builder::mapActivities);
    MigrationPlan plan = builder.build();
    return new Plan(plan, plan.getInstructions().stream().collect(Collectors.toUnmodifiableMap(
        MigrationInstruction::getSourceActivityId, MigrationInstruction::getTargetActivityId, (a, b) -> a)));
  }

  /** Source id to target id of the elements that play one role in both, where the target has no element of that id. */
  private Map<String, String> roleMappings(String source, String target) {
    AgentElements from = elements(source);
    AgentElements to = elements(target);
    var targetModel = repository.getBpmnModelInstance(target);
    Map<String, String> mappings = new HashMap<>();
    for (String role : from.roles()) {
      from.id(role).ifPresent(sourceId -> to.id(role)
          .filter(targetId -> !targetId.equals(sourceId) && targetModel.getModelElementById(sourceId) == null)
          .ifPresent(targetId -> mappings.put(sourceId, targetId)));
    }
    return mappings;
  }
}
