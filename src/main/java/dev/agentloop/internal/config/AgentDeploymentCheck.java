package dev.agentloop.internal.config;

import dev.agentloop.internal.agent.definition.AgentDiagramRules.DiagramTask;
import dev.agentloop.internal.agent.definition.AgentDiagramRules.Finding;
import dev.agentloop.internal.agent.definition.AgentDiagramRules;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.camunda.bpm.engine.BpmnParseException;
import org.camunda.bpm.engine.impl.bpmn.helper.BpmnProperties;
import org.camunda.bpm.engine.impl.bpmn.parser.ErrorEventDefinition;
import org.camunda.bpm.engine.impl.context.Context;
import org.camunda.bpm.engine.impl.interceptor.CommandContext;
import org.camunda.bpm.engine.impl.persistence.entity.DeploymentEntity;
import org.camunda.bpm.engine.impl.persistence.entity.ProcessDefinitionEntity;
import org.camunda.bpm.engine.impl.pvm.process.ActivityImpl;
import org.camunda.bpm.engine.impl.pvm.process.ProcessDefinitionImpl;
import org.camunda.bpm.engine.impl.pvm.process.ScopeImpl;
import org.camunda.bpm.engine.impl.util.xml.Element;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks agent diagrams against the {@link AgentDiagramRules} while the engine parses them: the
 * tasks of a process are noted as they are parsed, and checked once the whole process is parsed and
 * known to be an agent. The notes live on the process definition until then, so parallel
 * deployments do not mix. Thread-safe.
 *
 * <p>A new deployment that breaks a rule is refused: a {@link BpmnParseException} makes the engine
 * reject it with a {@code ParseException} naming the element, a refusal on purpose that leaves no error in the log
 * ({@link DeploymentRefusals}). A definition deployed earlier is
 * only parsed again (after a restart, or when the cache dropped it); it has runs, so a rule it
 * breaks now, say because a tool was removed since, is logged rather than thrown.
 */
class AgentDeploymentCheck {

  private static final Logger LOG = LoggerFactory.getLogger(AgentDeploymentCheck.class);
  private static final String NOTED_TASKS = "agentloop.notedTasks";

  private final AgentDiagramRules rules;

  AgentDeploymentCheck(AgentDiagramRules rules) {
    this.rules = rules;
  }

  /**
   * Notes a task for the check.
   *
   * @param topic its external-task topic, {@code null} for a task that is not external
   * @param reviewKind its {@code agentloop.review} kind, {@code null} for a task that is no review
   */
  void note(ProcessDefinitionImpl process, Element element, String id, String topic, String reviewKind,
      Map<String, String> properties) {
    noted(process).add(new NotedTask(element, new DiagramTask(id, topic, reviewKind, properties)));
  }

  /**
   * Checks what was noted for the process, when it is an agent, and forgets it either way.
   *
   * @throws BpmnParseException naming every problem, when a new deployment breaks a rule
   */
  void check(ProcessDefinitionEntity process, boolean agent) {
    List<NotedTask> tasks = noted(process);
    process.setProperty(NOTED_TASKS, null);
    if (!agent) {
      return;
    }
    List<Finding> findings = rules.check(process.getKey(), tasks.stream().map(NotedTask::task).toList(),
        caughtErrors(process));
    if (findings.isEmpty()) {
      return;
    }
    String message = "agent '" + process.getKey() + "' breaks AgentLoop's rules: "
        + findings.stream().map(Finding::message).collect(Collectors.joining("; "));
    if (isNewDeployment(process)) {
      Element first = tasks.stream().filter(task -> task.task().id().equals(findings.get(0).elementId()))
          .map(NotedTask::element).findFirst().orElse(null);
      DeploymentRefusals.refusedOnPurpose();
      throw new BpmnParseException(message, first);
    }
    LOG.warn("AGENTLOOP-030 {} (deployed earlier, so its runs go on; fix the diagram and deploy it again)", message);
  }

  /** The codes of the BPMN errors boundary events of the process catch; {@code ""} for one that catches all. */
  private static Set<String> caughtErrors(ScopeImpl scope) {
    Set<String> codes = new HashSet<>();
    for (ActivityImpl activity : scope.getActivities()) {
      List<ErrorEventDefinition> definitions = activity.getProperties().get(BpmnProperties.ERROR_EVENT_DEFINITIONS);
      if (definitions != null) {
        definitions.forEach(definition -> codes.add(definition.getErrorCode() == null ? "" : definition.getErrorCode()));
      }
      codes.addAll(caughtErrors(activity));
    }
    return codes;
  }

  /** A deployment made in this command is new; one read back from the database to fill the cache is not. */
  static boolean isNewDeployment(ProcessDefinitionEntity process) {
    CommandContext command = Context.getCommandContext();
    if (command == null || process.getDeploymentId() == null) {
      return true;
    }
    DeploymentEntity deployment = command.getDbEntityManager().getCachedEntity(DeploymentEntity.class,
        process.getDeploymentId());
    return deployment == null || deployment.isNew();
  }

  @SuppressWarnings("unchecked")
  private static List<NotedTask> noted(ProcessDefinitionImpl process) {
    List<NotedTask> tasks = (List<NotedTask>) process.getProperty(NOTED_TASKS);
    if (tasks == null) {
      tasks = new ArrayList<>();
      process.setProperty(NOTED_TASKS, tasks);
    }
    return tasks;
  }

  private record NotedTask(Element element, DiagramTask task) {}
}
