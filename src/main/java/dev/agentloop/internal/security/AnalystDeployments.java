package dev.agentloop.internal.security;

import dev.agentloop.api.AgentLoopGroups;
import dev.agentloop.internal.agent.definition.AgentDefinitions;
import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.camunda.bpm.engine.AuthorizationException;
import org.camunda.bpm.engine.impl.context.Context;
import org.camunda.bpm.engine.impl.identity.Authentication;
import org.camunda.bpm.engine.impl.interceptor.CommandContext;
import org.camunda.bpm.engine.impl.persistence.deploy.Deployer;
import org.camunda.bpm.engine.impl.persistence.entity.DeploymentEntity;
import org.camunda.bpm.engine.impl.persistence.entity.ResourceEntity;
import org.camunda.bpm.model.bpmn.Bpmn;
import org.camunda.bpm.model.bpmn.BpmnModelInstance;
import org.camunda.bpm.model.bpmn.instance.Process;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DuplicateKeyException;

/**
 * Keeps an analyst (a member of {@code agent-analysts} with no other right to deploy, {@link DeployRights}) to deploying
 * agents, and nothing that runs code. Camunda's right to deploy covers any process and any expression, script, class
 * or listener in it; so before Camunda's own deployers run, an analyst's deployment is checked against a positive list:
 * only diagrams ({@code .bpmn}); in them only what an agent is drawn with ({@link DiagramSandbox}); only executable
 * processes that are agents; and only keys the analyst's group may change ({@link AgentOwnership}). Every problem of
 * every file is named at once, and the deployment is refused whole as a {@code 403} (an {@link AuthorizationException},
 * which Camunda logs at debug level; AgentLoop logs one INFO line). A key nobody owned becomes the analyst's group's in
 * the deployment's transaction. An analyst who may also deploy otherwise is not held back here. Thread-safe.
 */
class AnalystDeployments implements Deployer {

  private static final Logger LOG = LoggerFactory.getLogger(AnalystDeployments.class);

  private final DiagramSandbox sandbox;
  private final AgentOwnership owners;

  /**
   * @param forms the ids of AgentLoop's forms, the only ones an analyst's tasks may show
   * @param beans whether a name is a bean of the application's context; the engine's own beans are asked too
   */
  AnalystDeployments(Set<String> forms, AgentOwnership owners, Predicate<String> beans) {
    this.sandbox = sandbox(forms, beans);
    this.owners = owners;
  }

  /** The check of an analyst's diagram, also for what reaches the engine by another way (an evaluation's candidate). */
  static DiagramSandbox sandbox(Set<String> forms, Predicate<String> beans) {
    return new DiagramSandbox(forms, beans.or(AnalystDeployments::isEngineBean));
  }

  @Override
  public void deploy(DeploymentEntity deployment) {
    CommandContext command = Context.getCommandContext();
    Authentication user = command == null ? null : command.getAuthentication();
    if (!deployment.isNew() || user == null || deployment.getResources() == null
        || !DeployRights.isAnalystOnly(command.getProcessEngineConfiguration(), user.getUserId(), user.getGroupIds())) {
      return;
    }
    List<SandboxProblem> problems = new ArrayList<>();
    Set<String> keys = new LinkedHashSet<>();
    for (ResourceEntity resource : deployment.getResources().values()) {
      problems.addAll(check(resource, user, keys));
    }
    if (!problems.isEmpty()) {
      String message = refusal(user.getUserId(), problems);
      LOG.info("AGENTLOOP-101 refused the deployment '{}' of user {}: {}", deployment.getName(), user.getUserId(),
          message);
      throw new AuthorizationException(message);
    }
    keys.stream().filter(key -> owners.owner(key).owner() == AgentOwner.Kind.NOBODY)
        .forEach(key -> claim(key, user));
  }

  private List<SandboxProblem> check(ResourceEntity resource, Authentication user, Set<String> keys) {
    String file = resource.getName();
    if (!isDiagram(file)) {
      return List.of(new SandboxProblem(file, null, "is no diagram: an analyst deploys the diagrams of agents (.bpmn)"
          + " only", "decisions (DMN), forms, scripts and every other file are deployed by the application"));
    }
    List<SandboxProblem> problems = new ArrayList<>(sandbox.check(file, resource.getBytes()));
    BpmnModelInstance model = read(resource);
    if (model == null) {
      return problems; // the engine's parser names what is wrong with it
    }
    boolean agent = AgentDefinitions.isAgent(model);
    // what is not executable is never deployed: no key of it to own
    for (Process process : model.getModelElementsByType(Process.class).stream().filter(Process::isExecutable).toList()) {
      if (!agent) {
        problems.add(new SandboxProblem(file, "process '" + process.getId() + "'", "is no agent: it has no service"
            + " task on an agentloop.* topic", "ask an administrator to deploy it"));
      }
      keys.add(process.getId());
      owners.refusal(user.getUserId(), user.getGroupIds(), process.getId()).ifPresent(refusal ->
          problems.add(new SandboxProblem(file, "process '" + process.getId() + "'", "may not be deployed by user "
              + user.getUserId() + ": " + refusal, null)));
    }
    return problems;
  }

  /** Two analysts of different groups deploying one new key at the same moment: the first stays its owner. */
  private void claim(String key, Authentication user) {
    try {
      owners.claim(key, user.getUserId(), user.getGroupIds());
    } catch (DuplicateKeyException taken) {
      throw new AuthorizationException("the agent '" + key + "' was deployed by another group at the same moment, and"
          + " is its group's now. Nothing was deployed; give your copy a process id of its own");
    }
  }

  private static String refusal(String userId, List<SandboxProblem> problems) {
    String listed = IntStream.range(0, problems.size())
        .mapToObj(i -> (i + 1) + ". " + problems.get(i).message()).collect(Collectors.joining(" "));
    return "user " + userId + " may deploy agents only (group " + AgentLoopGroups.ANALYSTS + "), and nothing that runs"
        + " code; this deployment has " + problems.size() + (problems.size() == 1 ? " problem: " : " problems: ")
        + listed + " Nothing was deployed; an administrator deploys what an analyst may not (see docs/users-and-"
        + "rights.md, what an analyst's diagram may hold)";
  }

  /** A bean of the engine's configuration ({@code beans}), which its expressions resolve like the application's. */
  private static boolean isEngineBean(String name) {
    Map<Object, Object> beans = Context.getProcessEngineConfiguration() == null ? null
        : Context.getProcessEngineConfiguration().getBeans();
    return beans != null && beans.containsKey(name);
  }

  private static boolean isDiagram(String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    return lower.endsWith(".bpmn") || lower.endsWith(".bpmn20.xml");
  }

  /** The engine's model of a diagram, for its processes; {@code null} where the engine could not read it either. */
  private static BpmnModelInstance read(ResourceEntity resource) {
    try {
      return Bpmn.readModelFromStream(new ByteArrayInputStream(resource.getBytes()));
    } catch (RuntimeException unreadable) {
      return null;
    }
  }
}
