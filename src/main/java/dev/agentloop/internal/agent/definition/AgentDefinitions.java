package dev.agentloop.internal.agent.definition;

import dev.agentloop.internal.agent.ReactAgentProcess;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.camunda.bpm.engine.RepositoryService;
import org.camunda.bpm.model.bpmn.BpmnModelInstance;
import org.camunda.bpm.model.bpmn.instance.BoundaryEvent;
import org.camunda.bpm.model.bpmn.instance.ErrorEventDefinition;
import org.camunda.bpm.model.bpmn.instance.ServiceTask;
import org.camunda.bpm.model.bpmn.instance.Task;
import org.camunda.bpm.model.bpmn.instance.UserTask;
import org.camunda.bpm.model.bpmn.instance.camunda.CamundaField;
import org.camunda.bpm.model.bpmn.instance.camunda.CamundaProperties;
import org.camunda.bpm.model.bpmn.instance.camunda.CamundaProperty;
import org.springframework.beans.factory.ObjectProvider;

/**
 * The settings of every deployed agent, read once per process definition (definitions never
 * change once deployed) from the extension properties of its agent tasks. Thread-safe.
 */
public class AgentDefinitions {

  /** Stands for a boundary error event without an error code: it catches every BPMN error. */
  private static final String CATCH_ALL = "";

  private final ObjectProvider<RepositoryService> repository;
  private final AgentDefaults defaults;
  private final Map<String, AgentSettings> byDefinitionId = new ConcurrentHashMap<>();
  private final Map<String, Boolean> agentIds = new ConcurrentHashMap<>();
  private final Map<String, Set<String>> caughtErrors = new ConcurrentHashMap<>();

  /** The repository comes from the engine, which is built after this; it is looked up on first use. */
  public AgentDefinitions(ObjectProvider<RepositoryService> repository, AgentDefaults defaults) {
    this.repository = repository;
    this.defaults = defaults;
  }

  public AgentSettings settings(String processDefinitionId) {
    return byDefinitionId.computeIfAbsent(processDefinitionId,
        id -> AgentSettings.of(properties(repository.getObject().getBpmnModelInstance(id)), defaults));
  }

  /**
   * Whether the agent's diagram lets the run's client answer its ask-human questions
   * ({@link ReactAgentProcess#CALLERS_MAY_ANSWER_PROPERTY} on its ask-human task).
   */
  public boolean callersMayAnswer(String processDefinitionId) {
    return "true".equals(properties(repository.getObject().getBpmnModelInstance(processDefinitionId))
        .get(ReactAgentProcess.CALLERS_MAY_ANSWER_PROPERTY));
  }

  /** Whether a process definition is an agent: it has a task on an {@code agentloop.*} topic. */
  public boolean isAgent(String processDefinitionId) {
    return agentIds.computeIfAbsent(processDefinitionId,
        id -> isAgent(repository.getObject().getBpmnModelInstance(id)));
  }

  /**
   * Whether the diagram catches a BPMN error with a boundary event (one without an error code catches
   * all). The deployment check makes agents catch every escape; definitions deployed before it may not.
   */
  public boolean catches(String processDefinitionId, String errorCode) {
    Set<String> caught = caughtErrors.computeIfAbsent(processDefinitionId,
        id -> caughtErrors(repository.getObject().getBpmnModelInstance(id)));
    return caught.contains(errorCode) || caught.contains(CATCH_ALL);
  }

  private static Set<String> caughtErrors(BpmnModelInstance model) {
    return model.getModelElementsByType(BoundaryEvent.class).stream()
        .flatMap(event -> event.getEventDefinitions().stream())
        .filter(ErrorEventDefinition.class::isInstance)
        .map(definition -> ((ErrorEventDefinition) definition).getError())
        .map(error -> error == null || error.getErrorCode() == null ? CATCH_ALL : error.getErrorCode())
        .collect(Collectors.toUnmodifiableSet());
  }

  /** Whether a diagram is an agent's: it has a task on an {@code agentloop.*} topic (or an AgentLoop review). */
  public static boolean isAgent(BpmnModelInstance model) {
    return !agentTasks(model).isEmpty();
  }

  /** The extension properties of all agent tasks of a diagram, by name. */
  public static Map<String, String> properties(BpmnModelInstance model) {
    Map<String, String> properties = new LinkedHashMap<>();
    for (Task task : agentTasks(model)) {
      propertiesOf(task).forEach(properties::put);
    }
    return properties;
  }

  /** Service tasks on agent topics, and user tasks AgentLoop reviews with. */
  private static List<Task> agentTasks(BpmnModelInstance model) {
    List<Task> tasks = new ArrayList<>();
    for (ServiceTask task : model.getModelElementsByType(ServiceTask.class)) {
      if (task.getCamundaTopic() != null && task.getCamundaTopic().startsWith(ReactAgentProcess.TOPIC_PREFIX)) {
        tasks.add(task);
      }
    }
    for (UserTask task : model.getModelElementsByType(UserTask.class)) {
      if (propertiesOf(task).containsKey(ReactAgentProcess.REVIEW_PROPERTY)) {
        tasks.add(task);
      }
    }
    return tasks;
  }

  /**
   * A task's settings: its extension properties, and its fields ({@code camunda:field}), which
   * Modeler edits as multi-line text and the element templates use for prompts. The engine ignores
   * fields on external tasks; AgentLoop reads them as it reads properties.
   */
  private static Map<String, String> propertiesOf(Task task) {
    Map<String, String> properties = new LinkedHashMap<>();
    if (task.getExtensionElements() != null) {
      for (CamundaField field : task.getExtensionElements().getChildElementsByType(CamundaField.class)) {
        properties.put(field.getCamundaName(), field.getCamundaStringValue() != null ? field.getCamundaStringValue()
            : field.getCamundaString() == null ? "" : field.getCamundaString().getTextContent());
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
