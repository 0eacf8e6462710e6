package dev.agentloop.internal.resume;

import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.ReviewKind;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.camunda.bpm.model.bpmn.BpmnModelInstance;
import org.camunda.bpm.model.bpmn.instance.BaseElement;
import org.camunda.bpm.model.bpmn.instance.BoundaryEvent;
import org.camunda.bpm.model.bpmn.instance.CallActivity;
import org.camunda.bpm.model.bpmn.instance.ErrorEventDefinition;
import org.camunda.bpm.model.bpmn.instance.EventBasedGateway;
import org.camunda.bpm.model.bpmn.instance.EventDefinition;
import org.camunda.bpm.model.bpmn.instance.FlowNode;
import org.camunda.bpm.model.bpmn.instance.IntermediateCatchEvent;
import org.camunda.bpm.model.bpmn.instance.MessageEventDefinition;
import org.camunda.bpm.model.bpmn.instance.ServiceTask;
import org.camunda.bpm.model.bpmn.instance.SubProcess;
import org.camunda.bpm.model.bpmn.instance.TimerEventDefinition;
import org.camunda.bpm.model.bpmn.instance.UserTask;
import org.camunda.bpm.model.bpmn.instance.camunda.CamundaProperties;
import org.camunda.bpm.model.bpmn.instance.camunda.CamundaProperty;

/**
 * What AgentLoop's own elements are for in one agent diagram, whatever their ids: the review of a kind
 * ({@code review:plan}), the agent loop ({@code loop}), the step tasks by topic, the call of agents, the wait for a
 * follow-up with its message and timer events, and the boundary events by what they are attached to. Two versions
 * of an agent whose analyst renamed an element still agree on its role, which is how a migration maps the
 * elements Camunda's equal-id mapping leaves out. Only roles one element plays are kept. Immutable.
 */
final class AgentElements {

  static final String LOOP = "loop";
  static final String FOLLOW_UP = "followUp";
  /** The event that takes a conversation's next question. */
  static final String FOLLOW_UP_EVENT = "message:" + ReactAgentProcess.FOLLOW_UP_MESSAGE;
  private static final String REVIEW = "review:";

  private final Map<String, String> idsByRole;
  private final Map<String, String> rolesById;

  private AgentElements(Map<String, String> idsByRole) {
    this.idsByRole = Map.copyOf(idsByRole);
    Map<String, String> roles = new HashMap<>();
    idsByRole.forEach((role, id) -> roles.put(id, role));
    this.rolesById = Map.copyOf(roles);
  }

  static AgentElements of(BpmnModelInstance model) {
    Map<String, String> roles = new HashMap<>();
    Set<String> ambiguous = new HashSet<>();
    for (FlowNode node : model.getModelElementsByType(FlowNode.class)) {
      roleOf(node).ifPresent(role -> {
        if (roles.putIfAbsent(role, node.getId()) != null) {
          ambiguous.add(role);
        }
      });
    }
    ambiguous.forEach(roles::remove);
    return new AgentElements(roles);
  }

  /** The roles that one element of this diagram plays each. */
  Set<String> roles() {
    return idsByRole.keySet();
  }

  /** The element that plays the role in this diagram, if one does. */
  Optional<String> id(String role) {
    return Optional.ofNullable(idsByRole.get(role));
  }

  /** The role of the element with this id, if it plays one. */
  Optional<String> role(String id) {
    return Optional.ofNullable(rolesById.get(id));
  }

  /** Which review the element is, e.g. {@code plan}, {@code answer}; empty for anything else. */
  Optional<String> reviewKind(String id) {
    return role(id).filter(role -> role.startsWith(REVIEW)).map(role -> role.substring(REVIEW.length()));
  }

  /** Whether the element is the gateway where a conversation waits for its next question. */
  boolean isFollowUpWait(String id) {
    return role(id).filter(FOLLOW_UP::equals).isPresent();
  }

  private static Optional<String> roleOf(FlowNode node) {
    if (node instanceof UserTask task) {
      return Optional.ofNullable(property(task, ReviewKind.PROPERTY)).map(kind -> REVIEW + kind);
    }
    if (node instanceof ServiceTask task && task.getCamundaTopic() != null
        && task.getCamundaTopic().startsWith(ReactAgentProcess.TOPIC_PREFIX)) {
      return Optional.of("task:" + task.getCamundaTopic());
    }
    if (node instanceof SubProcess loop && loop.getChildElementsByType(ServiceTask.class).stream()
        .anyMatch(task -> ReactAgentProcess.TOPIC_THINK.equals(task.getCamundaTopic()))) {
      return Optional.of(LOOP);
    }
    if (node instanceof CallActivity call && "true".equals(property(call, ReactAgentProcess.CALL_AGENT_PROPERTY))) {
      return Optional.of("callAgent");
    }
    if (node instanceof EventBasedGateway gateway && gateway.getSucceedingNodes().list().stream()
        .anyMatch(next -> FOLLOW_UP_EVENT.equals(eventRole(next)))) {
      return Optional.of(FOLLOW_UP);
    }
    if (node instanceof BoundaryEvent boundary && boundary.getAttachedTo() != null) {
      return roleOf(boundary.getAttachedTo()).map(attached -> eventRole(boundary) + "@" + attached);
    }
    if (node instanceof IntermediateCatchEvent event) {
      String role = eventRole(event);
      return Optional.ofNullable(role.startsWith("message:") ? role
          : event.getPreviousNodes().list().stream().anyMatch(before -> roleOf(before).filter(FOLLOW_UP::equals)
              .isPresent()) ? FOLLOW_UP + ":" + role : null);
    }
    return Optional.empty();
  }

  /** What an event waits for: a message by name, a timer, an error by code. */
  private static String eventRole(BaseElement event) {
    for (EventDefinition definition : event.getChildElementsByType(EventDefinition.class)) {
      if (definition instanceof MessageEventDefinition message && message.getMessage() != null) {
        return "message:" + message.getMessage().getName();
      }
      if (definition instanceof TimerEventDefinition) {
        return "timer";
      }
      if (definition instanceof ErrorEventDefinition error) {
        return "error:" + (error.getError() == null ? "" : error.getError().getErrorCode());
      }
    }
    return "event";
  }

  private static String property(BaseElement element, String name) {
    if (element.getExtensionElements() == null) {
      return null;
    }
    for (CamundaProperties properties : element.getExtensionElements().getChildElementsByType(CamundaProperties.class)) {
      for (CamundaProperty property : properties.getCamundaProperties()) {
        if (name.equals(property.getCamundaName())) {
          return property.getCamundaValue();
        }
      }
    }
    return null;
  }
}
