package dev.agentloop.internal.resume;

import dev.agentloop.api.UnknownAgentException;
import dev.agentloop.internal.agent.definition.AgentDefinitions;
import dev.agentloop.internal.agent.run.RunService;
import java.util.HashMap;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.Map;
import java.util.stream.Collectors;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.repository.Deployment;
import org.camunda.bpm.engine.repository.ProcessDefinition;

/**
 * The deployed versions of an agent, with their runs: what a migration moves runs between. Read without the user's
 * authorization checks (who may see them is decided before), so call it inside an engine command. Thread-safe.
 */
final class AgentVersions {

  private final ProcessEngine engine;
  private final AgentDefinitions definitions;
  private final RunService runs;

  AgentVersions(ProcessEngine engine, AgentDefinitions definitions, RunService runs) {
    this.engine = engine;
    this.definitions = definitions;
    this.runs = runs;
  }

  /** The agent's versions, oldest first; none when no agent has that key. */
  List<ProcessDefinition> of(String agentKey) {
    return engine.getRepositoryService().createProcessDefinitionQuery().processDefinitionKey(agentKey)
        .orderByProcessDefinitionVersion().asc().list().stream()
        .filter(definition -> definitions.isAgent(definition.getId())).toList();
  }

  /**
   * The agent's versions, oldest first, read by {@code read} (inside an engine command): thrown outside it, a
   * refusal is the caller's answer, not an engine command's failure logged as one.
   *
   * @throws UnknownAgentException when no version of an agent has that key
   */
  List<ProcessDefinition> existing(String agentKey, Function<Supplier<List<ProcessDefinition>>,
      List<ProcessDefinition>> read) {
    List<ProcessDefinition> versions = read.apply(() -> of(agentKey));
    if (versions.isEmpty()) {
      throw new UnknownAgentException(agentKey, runs.deployedAgents());
    }
    return versions;
  }

  /**
   * The version with that number among the agent's versions.
   *
   * @throws InvalidMigrationException naming the versions there are, when it has none of that number
   */
  static ProcessDefinition version(String agentKey, List<ProcessDefinition> versions, int version) {
    return versions.stream().filter(definition -> definition.getVersion() == version).findFirst()
        .orElseThrow(() -> new InvalidMigrationException("agent " + agentKey + " has no version " + version
            + "; its versions are " + versions.stream().map(definition -> Integer.toString(definition.getVersion()))
            .collect(Collectors.joining(", "))));
  }

  /** The versions with how many runs each has, open and in all. */
  List<AgentVersion> withRuns(List<ProcessDefinition> versions) {
    Map<String, Deployment> deployments = new HashMap<>();
    versions.forEach(definition -> deployments.computeIfAbsent(definition.getDeploymentId(), id ->
        engine.getRepositoryService().createDeploymentQuery().deploymentId(id).singleResult()));
    int latest = versions.get(versions.size() - 1).getVersion();
    return versions.stream().map(definition -> {
      Deployment deployment = deployments.get(definition.getDeploymentId());
      return new AgentVersion(definition.getVersion(), definition.getId(), definition.getVersionTag(),
          deployment == null || deployment.getDeploymentTime() == null ? null
              : deployment.getDeploymentTime().toInstant(),
          engine.getRuntimeService().createProcessInstanceQuery().processDefinitionId(definition.getId()).count(),
          engine.getHistoryService().createHistoricProcessInstanceQuery().processDefinitionId(definition.getId())
              .count(),
          definition.getVersion() == latest);
    }).toList();
  }

  /** The open runs of a version, oldest first. */
  List<String> openRuns(ProcessDefinition version) {
    return engine.getRuntimeService().createProcessInstanceQuery().processDefinitionId(version.getId())
        .orderByProcessInstanceId().asc().list().stream().map(instance -> instance.getId()).toList();
  }
}
