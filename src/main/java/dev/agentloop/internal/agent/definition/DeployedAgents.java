package dev.agentloop.internal.agent.definition;

import dev.agentloop.internal.agent.EvaluationKeys;
import dev.agentloop.spi.AgentTool;
import java.io.ByteArrayInputStream;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl;
import org.camunda.bpm.engine.impl.context.Context;
import org.camunda.bpm.engine.impl.interceptor.CommandContext;
import org.camunda.bpm.engine.impl.persistence.entity.DeploymentEntity;
import org.camunda.bpm.engine.impl.persistence.entity.ResourceEntity;
import org.camunda.bpm.engine.repository.ProcessDefinition;
import org.camunda.bpm.model.bpmn.Bpmn;
import org.camunda.bpm.model.bpmn.BpmnModelInstance;
import org.camunda.bpm.model.bpmn.instance.Documentation;
import org.camunda.bpm.model.bpmn.instance.Process;
import org.springframework.beans.factory.ObjectProvider;

/**
 * Reads which agents there are, for {@link AgentsAsTools}: the latest version of each deployed agent, as a tool with
 * the tools it allows, from the engine's repository; and the agents of the deployment the current command is parsing,
 * from the command's cache. Thread-safe.
 */
final class DeployedAgents {

  /** Set while this thread reads the deployed agents. */
  private static final ThreadLocal<Boolean> READING = new ThreadLocal<>();

  private final ObjectProvider<ProcessEngine> engine;
  private final AgentDefaults defaults;

  DeployedAgents(ObjectProvider<ProcessEngine> engine, AgentDefaults defaults) {
    this.engine = engine;
    this.defaults = defaults;
  }

  /** The latest definitions of the deployed agents; the same tools map as before while they are unchanged. */
  Listing read(Listing before) {
    if (READING.get() != null) {
      // reading a deployed agent's model may parse it again (after a restart, or when the cache dropped it), and
      // the checks of that parse ask for the listing: they get the one known, instead of reading without end
      return before;
    }
    ProcessEngineConfigurationImpl configuration = configuration();
    if (configuration == null) {
      return before;
    }
    READING.set(Boolean.TRUE);
    try {
      return readDeployed(configuration, before);
    } finally {
      READING.remove();
    }
  }

  private Listing readDeployed(ProcessEngineConfigurationImpl configuration, Listing before) {
    Map<String, String> definitionIds = new LinkedHashMap<>();
    Map<String, AgentTool> tools = new LinkedHashMap<>();
    Map<String, Set<String>> allowed = new HashMap<>();
    configuration.getCommandExecutorTxRequired().execute(command -> command.runWithoutAuthorization(() -> {
      List<ProcessDefinition> latest = configuration.getRepositoryService().createProcessDefinitionQuery()
          .latestVersion().orderByProcessDefinitionKey().asc().list();
      for (ProcessDefinition definition : latest) {
        if (EvaluationKeys.isCandidate(definition.getKey())) {
          continue; // an evaluation's candidate is no tool of any agent
        }
        if (definition.getId().equals(before.definitionIds().get(definition.getKey()))) {
          definitionIds.put(definition.getKey(), definition.getId());
          tools.put(definition.getKey(), before.tools().get(definition.getKey()));
          allowed.put(definition.getKey(), before.allowedTools().get(definition.getKey()));
          continue;
        }
        BpmnModelInstance model = configuration.getRepositoryService().getBpmnModelInstance(definition.getId());
        if (AgentDefinitions.isAgent(model)) {
          definitionIds.put(definition.getKey(), definition.getId());
          tools.put(definition.getKey(), tool(definition.getKey(), definition.getName(), model));
          allowed.put(definition.getKey(), allowedTools(model));
        }
      }
      return null;
    }));
    boolean unchanged = definitionIds.equals(before.definitionIds());
    return new Listing(definitionIds, unchanged ? before.tools() : Map.copyOf(tools), Map.copyOf(allowed),
        System.currentTimeMillis());
  }

  /** The agents of the deployment the current command is parsing, with the tools each allows. */
  Map<String, Set<String>> beingDeployed() {
    CommandContext command = Context.getCommandContext();
    if (command == null) {
      return Map.of();
    }
    Map<String, Set<String>> agents = new HashMap<>();
    for (DeploymentEntity deployment : command.getDbEntityManager().getCachedEntitiesByType(DeploymentEntity.class)) {
      if (!deployment.isNew() || deployment.getResources() == null) {
        continue;
      }
      for (ResourceEntity resource : deployment.getResources().values()) {
        if (resource.getName().endsWith(".bpmn") || resource.getName().endsWith(".bpmn20.xml")) {
          BpmnModelInstance model = readOrNull(resource.getBytes());
          if (model != null && AgentDefinitions.isAgent(model)) {
            model.getModelElementsByType(Process.class).forEach(process -> agents.put(process.getId(),
                allowedTools(model)));
          }
        }
      }
    }
    return agents;
  }

  /**
   * The tools the diagram's allowedTools name; read alone, so that a bad value of another setting (a maxSteps of -3)
   * is left to the deployment check, which names it with every other problem, instead of failing the parse here.
   */
  private Set<String> allowedTools(BpmnModelInstance model) {
    String allowed = AgentDefinitions.properties(model).get(AgentSettings.ALLOWED_TOOLS);
    return AgentSettings.of(allowed == null ? Map.of() : Map.of(AgentSettings.ALLOWED_TOOLS, allowed), defaults)
        .allowedTools();
  }

  /** A diagram the engine cannot read is left to its parser, which says what is wrong with it. */
  private static BpmnModelInstance readOrNull(byte[] bytes) {
    try {
      return Bpmn.readModelFromStream(new ByteArrayInputStream(bytes));
    } catch (RuntimeException unreadable) {
      return null;
    }
  }

  private AgentAsTool tool(String key, String name, BpmnModelInstance model) {
    String documentation = model.getModelElementsByType(Process.class).stream()
        .flatMap(process -> process.getDocumentations().stream())
        .map(Documentation::getTextContent).filter(text -> text != null && !text.isBlank())
        .findFirst().orElse(null);
    return new AgentAsTool(key, documentation != null ? documentation.strip()
        : "Asks the agent '" + (name == null ? key : name) + "' a question; it answers in a run of its own, which"
            + " people may review, and its answer comes back as this call's result.", answerSchema(model));
  }

  /** The agent's answer schema, if it has one (checked at its deployment, as its allowed tools). */
  private AnswerSchema answerSchema(BpmnModelInstance model) {
    return AgentSettings.of(AgentDefinitions.properties(model), defaults).answer().schema();
  }

  /** Inside a command (a deployment while the engine starts) its configuration; else the engine's, once there. */
  private ProcessEngineConfigurationImpl configuration() {
    if (Context.getCommandContext() != null) {
      return Context.getProcessEngineConfiguration();
    }
    ProcessEngine processEngine = engine.getIfAvailable();
    return processEngine == null ? null : (ProcessEngineConfigurationImpl) processEngine.getProcessEngineConfiguration();
  }

  /**
   * What was read: the definition id, the tool and the allowed tools of each agent, by key.
   *
   * @param readAt when, in {@link System#currentTimeMillis()}
   */
  record Listing(Map<String, String> definitionIds, Map<String, AgentTool> tools,
      Map<String, Set<String>> allowedTools, long readAt) {

    static final Listing NONE = new Listing(Map.of(), Map.of(), Map.of(), 0);
  }
}
