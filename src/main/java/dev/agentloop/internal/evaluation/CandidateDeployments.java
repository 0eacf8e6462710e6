package dev.agentloop.internal.evaluation;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Supplier;
import org.camunda.bpm.engine.IdentityService;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.ProcessEngineException;
import org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl;
import org.camunda.bpm.engine.impl.identity.Authentication;
import org.camunda.bpm.engine.repository.DeploymentWithDefinitions;
import org.camunda.bpm.engine.repository.ProcessDefinition;
import org.camunda.bpm.model.bpmn.Bpmn;

/**
 * Deploys what evaluations run and promote: a candidate under its own key, by AgentLoop (the deployment checks every
 * agent diagram gets still apply, and a diagram they refuse is a candidate refused before any case runs); a version of
 * the agent read back as a candidate's diagram; and a promoted candidate under the agent's key, as the person who
 * promotes it, so that Camunda's and AgentLoop's rules of who deploys what apply to it as to any deployment.
 * Thread-safe.
 */
final class CandidateDeployments {

  static final String SOURCE = "agentloop-evaluation";

  private final ProcessEngine engine;

  CandidateDeployments(ProcessEngine engine) {
    this.engine = engine;
  }

  /**
   * Deploys the candidate under its own key.
   *
   * @throws InvalidCandidateException when the engine or AgentLoop's deployment checks refuse it, with their words
   */
  void deployUnder(String candidateKey, CandidateDiagram candidate) {
    asAgentLoop(() -> {
      try {
        return engine.getRepositoryService().createDeployment().name(candidateKey).source(SOURCE)
            .addModelInstance(candidateKey + ".bpmn", candidate.underKey(candidateKey)).deploy();
      } catch (ProcessEngineException e) {
        throw new InvalidCandidateException("the candidate cannot be deployed: " + e.getMessage(), e);
      }
    });
  }

  /**
   * The diagram of a deployed version of the agent.
   *
   * @throws InvalidCandidateException when the agent has no such version
   */
  String versionOf(String agentKey, int version) {
    ProcessDefinition definition = withoutAuthorization(() -> engine.getRepositoryService()
        .createProcessDefinitionQuery().processDefinitionKey(agentKey).processDefinitionVersion(version)
        .withoutTenantId().singleResult());
    if (definition == null) {
      List<Integer> versions = withoutAuthorization(() -> engine.getRepositoryService().createProcessDefinitionQuery()
          .processDefinitionKey(agentKey).orderByProcessDefinitionVersion().asc().list().stream()
          .map(ProcessDefinition::getVersion).toList());
      throw new InvalidCandidateException("the agent '" + agentKey + "' has no version " + version
          + (versions.isEmpty() ? ": it is not deployed" : "; its versions: " + versions));
    }
    return withoutAuthorization(() -> {
      try (InputStream in = engine.getRepositoryService().getProcessModel(definition.getId())) {
        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
  }

  /**
   * Deploys the candidate's diagram as the agent's newest version, as the current user.
   *
   * @return the version new runs of the agent now start on
   */
  int promote(String agentKey, String xml, String evaluationId) {
    DeploymentWithDefinitions deployment = engine.getRepositoryService().createDeployment()
        .name(agentKey).source(SOURCE + "-" + evaluationId)
        .addModelInstance(agentKey + ".bpmn", Bpmn.readModelFromStream(
            new java.io.ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8))))
        .deployWithResult();
    return deployment.getDeployedProcessDefinitions().stream().filter(d -> d.getKey().equals(agentKey))
        .findFirst().orElseThrow(() -> new IllegalStateException("the promotion deployed no process '" + agentKey + "'"))
        .getVersion();
  }

  /** The newest version of the key, or 0 when it has none. */
  int latestVersion(String key) {
    ProcessDefinition latest = withoutAuthorization(() -> engine.getRepositoryService().createProcessDefinitionQuery()
        .processDefinitionKey(key).latestVersion().withoutTenantId().singleResult());
    return latest == null ? 0 : latest.getVersion();
  }

  /** Deploys as AgentLoop: the user who asked is held to the evaluations' rules, not to an analyst's deployment. */
  private <T> T asAgentLoop(Supplier<T> deployment) {
    IdentityService identity = engine.getIdentityService();
    Authentication user = identity.getCurrentAuthentication();
    identity.clearAuthentication();
    try {
      return deployment.get();
    } finally {
      if (user != null) {
        identity.setAuthentication(user);
      }
    }
  }

  private <T> T withoutAuthorization(Supplier<T> query) {
    return ((ProcessEngineConfigurationImpl) engine.getProcessEngineConfiguration()).getCommandExecutorTxRequired()
        .execute(context -> context.runWithoutAuthorization(query::get));
  }
}
