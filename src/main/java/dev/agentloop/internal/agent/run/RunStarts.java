package dev.agentloop.internal.agent.run;

import dev.agentloop.internal.agent.EvaluationKeys;
import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.definition.AgentDefinitions;
import dev.agentloop.api.UnknownAgentException;
import dev.agentloop.internal.trace.ConversationClaims;
import dev.agentloop.internal.worker.ExternalTaskWorker;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.RuntimeService;
import org.camunda.bpm.engine.repository.ProcessDefinition;
import org.springframework.beans.factory.ObjectProvider;

/**
 * Starts runs: finds the agent's latest versions, starts the process instance (under a conversation id's claim
 * where there is one) and lets the embedded worker take the first steps. Apart from the run views because a start
 * writes and the views only read. Thread-safe.
 */
final class RunStarts {

  private final ProcessEngine engine;
  private final AgentDefinitions definitions;
  private final EngineCommands commands;
  private final ConversationStarts conversations;
  /** The embedded worker, where this node has one: it takes a new run's first step as the run starts. */
  private final ObjectProvider<ExternalTaskWorker<?>> worker;

  RunStarts(ProcessEngine engine, AgentDefinitions definitions, EngineCommands commands,
      ObjectProvider<ExternalTaskWorker<?>> worker, ConversationClaims claims) {
    this.engine = engine;
    this.definitions = definitions;
    this.commands = commands;
    this.worker = worker;
    this.conversations = new ConversationStarts(engine.getRuntimeService(), commands.executor(), claims);
  }

  String start(String agentKey, String question, String conversationId) {
    // an evaluation's candidate is started by its evaluation only, as if no one else knew it
    List<String> latest = EvaluationKeys.isCandidate(agentKey) ? List.of() : latestAgentVersions(agentKey);
    if (latest.isEmpty()) {
      throw new UnknownAgentException(agentKey, deployedAgents());
    }
    Supplier<String> start = startOf(agentKey, question, conversationId, latest);
    ExternalTaskWorker<?> embedded = worker.getIfAvailable();
    if (conversationId == null) {
      return embedded == null ? start.get() : embedded.startTakingFirstSteps(start);
    }
    // one transaction for the instance and its claim, whether the worker takes the first steps or not
    return conversations.start(conversationId, start, claimed -> commands.executor().execute(context ->
        embedded == null ? claimed.get() : embedded.startTakingFirstSteps(claimed)));
  }

  /**
   * Starts a run of an evaluation's candidate, in the caller's transaction where there is one (so that what the
   * evaluation writes about the run commits with its start).
   */
  String startCandidate(String candidateKey, String question) {
    if (!EvaluationKeys.isCandidate(candidateKey)) {
      throw new IllegalArgumentException("'" + candidateKey + "' is no evaluation's candidate");
    }
    List<String> latest = latestAgentVersions(candidateKey);
    if (latest.size() != 1) {
      throw new UnknownAgentException(candidateKey, List.of());
    }
    Supplier<String> start = startOf(candidateKey, question, null, latest);
    ExternalTaskWorker<?> embedded = worker.getIfAvailable();
    return commands.executor().execute(context -> embedded == null ? start.get() : embedded.startTakingFirstSteps(start));
  }

  private Supplier<String> startOf(String agentKey, String question, String businessKey, List<String> latest) {
    RuntimeService runtime = engine.getRuntimeService();
    Map<String, Object> variables = ReactAgentProcess.QUESTION.with(question);
    // by id where the key is unambiguous: the engine takes it from its cache instead of asking the
    // database for the latest version once more; by key across tenants, so the engine says which to pick
    return () -> (latest.size() == 1
        ? runtime.startProcessInstanceById(latest.get(0), businessKey, variables)
        : runtime.startProcessInstanceByKey(agentKey, businessKey, variables)).getId();
  }

  List<String> deployedAgents() {
    return commands.withoutAuthorization(() ->
        engine.getRepositoryService().createProcessDefinitionQuery().latestVersion().list().stream()
            .filter(definition -> !EvaluationKeys.isCandidate(definition.getKey()))
            .filter(definition -> definitions.isAgent(definition.getId()))
            .map(ProcessDefinition::getKey)
            .sorted()
            .toList());
  }

  /** The ids of the latest versions of the agent, one per tenant; none when that key is no agent. */
  private List<String> latestAgentVersions(String agentKey) {
    return commands.withoutAuthorization(() ->
        engine.getRepositoryService().createProcessDefinitionQuery().processDefinitionKey(agentKey).latestVersion()
            .list().stream()
            .map(ProcessDefinition::getId)
            .filter(definitions::isAgent)
            .toList());
  }
}
