package dev.agentloop.agent;

import dev.agentloop.config.AgentLoopProperties;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.camunda.bpm.engine.RepositoryService;
import org.camunda.bpm.model.bpmn.BpmnModelInstance;
import org.camunda.bpm.model.bpmn.instance.ServiceTask;
import org.camunda.bpm.model.bpmn.instance.camunda.CamundaProperties;
import org.camunda.bpm.model.bpmn.instance.camunda.CamundaProperty;

/**
 * The settings of every deployed agent, read once per process definition (definitions never
 * change once deployed) from the extension properties of its agent tasks. Thread-safe.
 */
public class AgentDefinitions {

  private final RepositoryService repository;
  private final AgentLoopProperties.Agent defaults;
  private final Map<String, AgentSettings> byDefinitionId = new ConcurrentHashMap<>();
  private final Map<String, Boolean> agentIds = new ConcurrentHashMap<>();

  public AgentDefinitions(RepositoryService repository, AgentLoopProperties.Agent defaults) {
    this.repository = repository;
    this.defaults = defaults;
  }

  public AgentSettings settings(String processDefinitionId) {
    return byDefinitionId.computeIfAbsent(processDefinitionId,
        id -> AgentSettings.of(properties(repository.getBpmnModelInstance(id)), defaults));
  }

  /** Whether a process definition is an agent: it has a task on an {@code agentloop.*} topic. */
  public boolean isAgent(String processDefinitionId) {
    return agentIds.computeIfAbsent(processDefinitionId, id -> repository.getBpmnModelInstance(id)
        .getModelElementsByType(ServiceTask.class).stream()
        .anyMatch(task -> task.getCamundaTopic() != null && task.getCamundaTopic().startsWith(ReactAgentProcess.TOPIC_PREFIX)));
  }

  /** The extension properties of all agent tasks of a diagram, by name. */
  static Map<String, String> properties(BpmnModelInstance model) {
    Map<String, String> properties = new LinkedHashMap<>();
    for (ServiceTask task : model.getModelElementsByType(ServiceTask.class)) {
      String topic = task.getCamundaTopic();
      if (topic == null || !topic.startsWith(ReactAgentProcess.TOPIC_PREFIX) || task.getExtensionElements() == null) {
        continue;
      }
      for (CamundaProperties list : task.getExtensionElements().getChildElementsByType(CamundaProperties.class)) {
        for (CamundaProperty property : list.getCamundaProperties()) {
          properties.put(property.getCamundaName(), property.getCamundaValue());
        }
      }
    }
    return properties;
  }
}
