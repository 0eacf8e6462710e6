package dev.agentloop.internal.agent.definition;

import dev.agentloop.internal.agent.EvaluationKeys;
import dev.agentloop.spi.AgentTool;
import dev.agentloop.internal.tool.ToolSource;
import java.io.ByteArrayInputStream;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;
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
 * Other agents as tools: every deployed agent (the latest version of each process key) is a tool named after its key,
 * described by its process's documentation, that an agent may call when its {@code allowedTools} name it — never
 * through {@code *}. The listing follows deployments: it is read again at most every few seconds, and at once for a
 * name it does not know, so that an agent deployed on another node is found; an agent deployed in the deployment that
 * is being parsed counts too, so that a coordinator and its sub-agents can be deployed together. Thread-safe.
 */
public class AgentsAsTools implements ToolSource {

  /** The source's name: the tools of agents share no circuit breaker, since their calls are child runs. */
  public static final String NAME = "agents";
  private static final long FRESH_MILLIS = 5_000;

  private final ObjectProvider<ProcessEngine> engine;
  private final AgentDefaults defaults;
  private volatile Listing listing = Listing.NONE;
  /** Set while this thread reads the deployed agents. */
  private static final ThreadLocal<Boolean> READING = new ThreadLocal<>();
  /** Keys the application deploys right after the deployment this thread runs, see {@link #whileAnnounced}. */
  private static final ThreadLocal<Set<String>> ANNOUNCED = ThreadLocal.withInitial(Set::of);

  public AgentsAsTools(ObjectProvider<ProcessEngine> engine, AgentDefaults defaults) {
    this.engine = engine;
    this.defaults = defaults;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Map<String, AgentTool> tools() {
    return current(FRESH_MILLIS).tools();
  }

  /**
   * A deployed agent's key, or the key of an agent in the deployment being parsed. A name the listing does not know
   * reads the deployed agents again: it may have been deployed a moment ago, here or on another node.
   */
  @Override
  public boolean claims(String toolName) {
    return current(FRESH_MILLIS).tools().containsKey(toolName) || current(0).tools().containsKey(toolName)
        || beingDeployed().containsKey(toolName) || ANNOUNCED.get().contains(toolName);
  }

  /**
   * Runs a deployment during which these keys count as agents, though not deployed yet: AgentLoop deploys its default
   * agent before the application deploys its own processes at start, and the default agent may name one of them in
   * {@code agentloop.agent.allowed-tools}. The application's deployment right after checks its agents in full.
   */
  public static <T> T whileAnnounced(Set<String> keys, Supplier<T> deployment) {
    Set<String> before = ANNOUNCED.get();
    ANNOUNCED.set(Set.copyOf(keys));
    try {
      return deployment.get();
    } finally {
      ANNOUNCED.set(before);
    }
  }

  /**
   * Never complete: an agent of the deployment being parsed is not listed before its deployment is, so deploy-time
   * checks accept the names this source {@link #claims}.
   */
  @Override
  public boolean listed() {
    return false;
  }

  /** Whether the name is an agent's key (deployed, or in the deployment being parsed). */
  public boolean isAgent(String toolName) {
    return claims(toolName);
  }

  /** The agents that the agent with this key names in its allowedTools; empty for a key that is no agent. */
  public Set<String> calledBy(String key) {
    Set<String> allowed = beingDeployed().get(key);
    if (allowed == null) {
      allowed = current(FRESH_MILLIS).allowedTools().getOrDefault(key, Set.of());
    }
    return allowed.stream().filter(this::isAgent).collect(Collectors.toUnmodifiableSet());
  }

  private Listing current(long maxAgeMillis) {
    Listing known = listing;
    if (READING.get() != null) {
      // reading a deployed agent's model may parse it again (after a restart, or when the cache dropped it), and
      // the checks of that parse ask for the listing: they get the one known, instead of reading without end
      return known;
    }
    if (maxAgeMillis > 0 && System.currentTimeMillis() - known.readAt() < maxAgeMillis) {
      return known;
    }
    Listing read = read(known);
    listing = read;
    return read;
  }

  /** The latest definitions of the deployed agents; the same tools map as before while they are unchanged. */
  private Listing read(Listing before) {
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
  private Map<String, Set<String>> beingDeployed() {
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

  private record Listing(Map<String, String> definitionIds, Map<String, AgentTool> tools,
      Map<String, Set<String>> allowedTools, long readAt) {

    static final Listing NONE = new Listing(Map.of(), Map.of(), Map.of(), 0);
  }
}
