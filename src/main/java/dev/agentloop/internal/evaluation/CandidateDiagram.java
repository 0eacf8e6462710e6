package dev.agentloop.internal.evaluation;

import dev.agentloop.internal.agent.EvaluationKeys;
import dev.agentloop.internal.agent.definition.AgentDefinitions;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.camunda.bpm.model.bpmn.Bpmn;
import org.camunda.bpm.model.bpmn.BpmnModelInstance;
import org.camunda.bpm.model.bpmn.instance.Process;
import org.camunda.bpm.model.bpmn.instance.UserTask;

/**
 * A candidate's diagram: read and held to being one agent of the evaluated key before anything is deployed, and the
 * copy the evaluation deploys under the candidate's own key ({@link EvaluationKeys}), whose reviews are the
 * evaluation's alone. The diagram as it came is what a promotion deploys. Immutable.
 */
final class CandidateDiagram {

  /** Who answers the candidate runs' reviews, and the author of what it decides there. */
  static final String EVALUATOR = "agentloop-evaluation";
  private static final String CAMUNDA = "http://camunda.org/schema/1.0/bpmn";

  private final String agentKey;
  private final byte[] xml;

  private CandidateDiagram(String agentKey, byte[] xml) {
    this.agentKey = agentKey;
    this.xml = xml.clone();
  }

  /**
   * @throws InvalidCandidateException naming what is wrong: no BPMN Camunda reads, not exactly one executable
   *     process, a process that is not the agent's key or is no agent
   */
  static CandidateDiagram of(String agentKey, String xml) {
    CandidateDiagram candidate = new CandidateDiagram(agentKey, xml.getBytes(StandardCharsets.UTF_8));
    BpmnModelInstance model = candidate.read();
    List<Process> executable = model.getModelElementsByType(Process.class).stream().filter(Process::isExecutable)
        .toList();
    if (executable.size() != 1) {
      throw new InvalidCandidateException("the candidate must hold one executable process, the agent '" + agentKey
          + "'; it holds " + executable.size() + (executable.isEmpty() ? "" : ": " + executable.stream()
          .map(Process::getId).toList()));
    }
    String id = executable.get(0).getId();
    if (!agentKey.equals(id)) {
      throw new InvalidCandidateException("the candidate's process is '" + id + "', not the agent '" + agentKey
          + "': a candidate of an agent keeps its key as the process ID (Modeler: the process's ID)");
    }
    if (!AgentDefinitions.isAgent(model)) {
      throw new InvalidCandidateException("the candidate's process '" + id + "' is no agent: it has no service task on"
          + " an agentloop.* topic");
    }
    return candidate;
  }

  String agentKey() {
    return agentKey;
  }

  /** The diagram as it came, what a promotion deploys. */
  String xml() {
    return new String(xml, StandardCharsets.UTF_8);
  }

  byte[] bytes() {
    return xml.clone();
  }

  /**
   * The copy run by the evaluation: its process under the candidate's key and named as the evaluation's, its user
   * tasks assigned to {@value #EVALUATOR} and offered to nobody else, so that no person's task list shows them.
   */
  BpmnModelInstance underKey(String candidateKey) {
    BpmnModelInstance model = read();
    Process process = model.getModelElementsByType(Process.class).stream().filter(Process::isExecutable)
        .findFirst().orElseThrow();
    String name = process.getName() == null || process.getName().isBlank() ? agentKey : process.getName();
    process.setId(candidateKey);
    process.setName(name + " (candidate " + candidateKey.substring(EvaluationKeys.PREFIX.length()) + ")");
    for (UserTask task : model.getModelElementsByType(UserTask.class)) {
      task.removeAttributeNs(CAMUNDA, "candidateGroups");
      task.removeAttributeNs(CAMUNDA, "candidateUsers");
      task.setCamundaAssignee(EVALUATOR);
    }
    return model;
  }

  private BpmnModelInstance read() {
    try {
      return Bpmn.readModelFromStream(new ByteArrayInputStream(xml));
    } catch (RuntimeException e) {
      throw new InvalidCandidateException("the candidate is no BPMN diagram Camunda can read: " + why(e), e);
    }
  }

  private static String why(Throwable e) {
    Throwable cause = e;
    while (cause.getCause() != null && cause.getCause() != cause) {
      cause = cause.getCause();
    }
    String message = cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
    return message.length() > 500 ? message.substring(0, 500) + "…" : message;
  }
}
