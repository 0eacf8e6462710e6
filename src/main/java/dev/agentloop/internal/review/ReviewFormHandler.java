package dev.agentloop.internal.review;

import dev.agentloop.internal.agent.ProcessVariable;
import dev.agentloop.internal.agent.ReviewKind;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.camunda.bpm.engine.delegate.VariableScope;
import org.camunda.bpm.engine.form.TaskFormData;
import org.camunda.bpm.engine.impl.bpmn.parser.BpmnParse;
import org.camunda.bpm.engine.impl.form.handler.TaskFormHandler;
import org.camunda.bpm.engine.impl.persistence.entity.DeploymentEntity;
import org.camunda.bpm.engine.impl.persistence.entity.ProcessDefinitionEntity;
import org.camunda.bpm.engine.impl.persistence.entity.TaskEntity;
import org.camunda.bpm.engine.impl.util.xml.Element;
import org.camunda.bpm.engine.variable.VariableMap;
import org.camunda.bpm.engine.variable.Variables;

/**
 * Guards what a submission of a review's form may write. Camunda sets a submitted field that is not
 * a variable of the task on the process instance: a field named {@code route} or {@code resumeAt}
 * would steer the diagram, one named {@code question} would rewrite the run. So a submission may
 * carry only the task's own fields (the task-local variables its review prepared); anything else is
 * refused with a 400 that names it, through Camunda's REST API and AgentLoop's alike, before anything
 * is written. Texts longer than a Camunda string column are stored so that they fit (see
 * {@link ProcessVariable#storable}). Wraps the handler the engine parsed for the task.
 */
class ReviewFormHandler implements TaskFormHandler {

  /**
   * Fields a review leaves unprepared, by review kind, so that its form shows the field's own default (a
   * checkbox checked by default) and the review tells a completion that sent the field from one that did not:
   * taken when sent, and created on the task then.
   */
  private static final Map<String, Set<String>> UNPREPARED = Map.of(ReviewKind.ANSWER.value(),
      Set.of(FormTurnRedo.REPLAY));

  private final TaskFormHandler parsed;

  ReviewFormHandler(TaskFormHandler parsed) {
    this.parsed = parsed;
  }

  @Override
  public void submitFormVariables(VariableMap properties, VariableScope scope) {
    Set<String> unknown = new TreeSet<>(properties.keySet());
    unknown.removeAll(scope.getVariableNamesLocal());
    unknown.remove(ReviewTask.KIND);
    Set<String> unprepared = UNPREPARED.getOrDefault(String.valueOf(scope.getVariableLocal(ReviewTask.KIND)), Set.of());
    unknown.removeAll(unprepared);
    if (!unknown.isEmpty()) {
      // a bad request, which the engine logs at DEBUG, not a form-field exception it logs at ERROR
      throw Refusals.refuse(new ReviewException("not fields of this task: '" + String.join("', '", unknown)
          + "'; send only the fields its form has: '" + String.join("', '", fields(scope)) + "'"));
    }
    unprepared.stream().filter(properties::containsKey).forEach(name -> scope.setVariableLocal(name, null));
    VariableMap storable = Variables.createVariables();
    properties.forEach((name, value) -> storable.put(name, ProcessVariable.storable(value)));
    parsed.submitFormVariables(storable, scope);
  }

  private static Set<String> fields(VariableScope scope) {
    Set<String> fields = new TreeSet<>(scope.getVariableNamesLocal());
    fields.addAll(UNPREPARED.getOrDefault(String.valueOf(scope.getVariableLocal(ReviewTask.KIND)), Set.of()));
    fields.remove(ReviewTask.KIND);
    return fields;
  }

  @Override
  public TaskFormData createTaskForm(TaskEntity task) {
    return parsed.createTaskForm(task);
  }

  @Override
  public void parseConfiguration(Element activityElement, DeploymentEntity deployment,
      ProcessDefinitionEntity processDefinition, BpmnParse bpmnParse) {
    parsed.parseConfiguration(activityElement, deployment, processDefinition, bpmnParse);
  }
}
