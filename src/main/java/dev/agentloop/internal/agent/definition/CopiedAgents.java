package dev.agentloop.internal.agent.definition;

import dev.agentloop.internal.agent.EvaluationKeys;
import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;
import org.camunda.bpm.engine.impl.context.Context;
import org.camunda.bpm.engine.impl.interceptor.CommandContext;
import org.camunda.bpm.engine.impl.persistence.deploy.Deployer;
import org.camunda.bpm.engine.impl.persistence.entity.DeploymentEntity;
import org.camunda.bpm.engine.impl.persistence.entity.ResourceEntity;
import org.camunda.bpm.engine.repository.ProcessDefinition;
import org.camunda.bpm.model.bpmn.Bpmn;
import org.camunda.bpm.model.bpmn.BpmnModelInstance;
import org.camunda.bpm.model.bpmn.instance.Documentation;
import org.camunda.bpm.model.bpmn.instance.Process;
import org.camunda.bpm.model.bpmn.instance.camunda.CamundaField;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Warns, at deployment, of an agent that is a copy of another with its own words left unchanged: the
 * same planner prompt, system prompt or documentation as an agent deployed under another key. An analyst
 * who copies a diagram in Modeler and changes only its id gets an agent that plans and describes itself as
 * the original does, which nothing else points out. A warning, not a refusal: sharing a prompt on purpose is
 * allowed. The warning goes to the log and to the deployment's answer ({@link DeploymentWarnings}). Thread-safe.
 */
public class CopiedAgents implements Deployer {

  private static final Logger LOG = LoggerFactory.getLogger(CopiedAgents.class);

  @Override
  public void deploy(DeploymentEntity deployment) {
    CommandContext command = Context.getCommandContext();
    if (!deployment.isNew() || command == null) {
      return;
    }
    for (ResourceEntity resource : deployment.getResources().values()) {
      String name = resource.getName().toLowerCase(Locale.ROOT);
      if (name.endsWith(".bpmn") || name.endsWith(".bpmn20.xml")) {
        BpmnModelInstance model = read(resource.getBytes());
        if (model != null && AgentDefinitions.isAgent(model)) {
          // the deployer may not read the other agents; the warning is about them all the same
          command.runWithoutAuthorization(() -> {
            warnOfCopies(model);
            return null;
          });
        }
      }
    }
  }

  /** One line per copied agent, naming what it kept of which agents. */
  private static void warnOfCopies(BpmnModelInstance model) {
    var repository = Context.getProcessEngineConfiguration().getRepositoryService();
    for (Process process : model.getModelElementsByType(Process.class)) {
      Map<String, String> words = words(model, process);
      // an evaluation's candidate is a copy of its agent on purpose, and no analyst's mistake
      if (words.isEmpty() || EvaluationKeys.isCandidate(process.getId())) {
        continue;
      }
      Map<String, List<String>> keptOf = new LinkedHashMap<>();
      for (ProcessDefinition other : repository.createProcessDefinitionQuery().latestVersion().list()) {
        BpmnModelInstance otherModel = other.getKey().equals(process.getId()) || EvaluationKeys.isCandidate(other.getKey())
            ? null
            : repository.getBpmnModelInstance(other.getId());
        Process otherProcess = otherModel == null || !AgentDefinitions.isAgent(otherModel) ? null
            : otherModel.getModelElementById(other.getKey());
        if (otherProcess != null) {
          Map<String, String> theirs = words(otherModel, otherProcess);
          List<String> same = words.keySet().stream().filter(what -> words.get(what).equals(theirs.get(what))).toList();
          if (!same.isEmpty()) {
            keptOf.computeIfAbsent(String.join(", ", same), what -> new ArrayList<>()).add("'" + other.getKey() + "'");
          }
        }
      }
      if (!keptOf.isEmpty()) {
        String warning = "agent '" + process.getId() + "' keeps other agents' words unchanged: " + keptOf.entrySet()
            .stream().map(kept -> "the " + kept.getKey() + " of " + String.join(", ", kept.getValue()))
            .collect(Collectors.joining("; ")) + ". It will plan, act or describe itself as they do; write its own in"
            + " Modeler, unless sharing them is meant";
        LOG.warn("AGENTLOOP-102 {}", warning);
        DeploymentWarnings.add(warning);
      }
    }
  }

  /** The texts that make an agent the agent it is, by what they are; blank ones left out. */
  private static Map<String, String> words(BpmnModelInstance model, Process process) {
    Map<String, String> words = new LinkedHashMap<>();
    for (CamundaField field : model.getModelElementsByType(CamundaField.class)) {
      String text = field.getCamundaString() != null ? field.getCamundaString().getTextContent()
          : field.getCamundaStringValue();
      if (AgentSettings.PLANNER_PROMPT.equals(field.getCamundaName()) && notBlank(text)) {
        words.put("planner prompt", text.strip());
      } else if (AgentSettings.SYSTEM_PROMPT.equals(field.getCamundaName()) && notBlank(text)) {
        words.put("system prompt", text.strip());
      }
    }
    process.getChildElementsByType(Documentation.class).stream().map(Documentation::getTextContent)
        .filter(CopiedAgents::notBlank).findFirst().ifPresent(text -> words.put("documentation", text.strip()));
    return words;
  }

  private static boolean notBlank(String text) {
    return text != null && !text.isBlank();
  }

  /** A diagram the engine cannot read is left to its parser, which says what is wrong with it. */
  private static BpmnModelInstance read(byte[] bytes) {
    try {
      return Bpmn.readModelFromStream(new ByteArrayInputStream(Objects.requireNonNull(bytes)));
    } catch (RuntimeException unreadable) {
      return null;
    }
  }
}
