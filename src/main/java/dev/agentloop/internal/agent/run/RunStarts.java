package dev.agentloop.internal.agent.run;

import dev.agentloop.internal.agent.EvaluationKeys;
import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.definition.AgentDefinitions;
import dev.agentloop.api.UnknownAgentException;
import dev.agentloop.internal.trace.ConversationClaims;
import dev.agentloop.internal.worker.ExternalTaskWorker;
import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.internal.agent.definition.AnswerSchema;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.RuntimeService;
import org.camunda.bpm.engine.impl.persistence.entity.ProcessDefinitionEntity;
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

  /**
   * @param answerSchema the answer schema of this run, over the agent's own; {@code null}: the agent's
   * @throws IllegalArgumentException when {@code answerSchema} is no answer schema, saying why; nothing is started
   */
  String start(String agentKey, String question, String conversationId, JsonNode answerSchema) {
    String schema = answerSchema == null || answerSchema.isNull() ? null : AnswerSchema.of(answerSchema).toString();
    // an evaluation's candidate is started by its evaluation only, as if no one else knew it
    List<String> latest = EvaluationKeys.isCandidate(agentKey) ? List.of() : latestAgentVersions(agentKey);
    if (latest.isEmpty()) {
      throw new UnknownAgentException(agentKey, deployedAgents());
    }
    Supplier<String> start = startOf(agentKey, question, conversationId, latest, schema);
    ExternalTaskWorker<?> embedded = worker.getIfAvailable();
    if (conversationId == null) {
      return embedded == null ? start.get() : embedded.startTakingFirstSteps(start);
    }
    // refused as a start without a conversation id is: who may not start the agent learns nothing of who holds the id
    requireStartRight(latest);
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
    Supplier<String> start = startOf(candidateKey, question, null, latest, null);
    ExternalTaskWorker<?> embedded = worker.getIfAvailable();
    return commands.executor().execute(context -> embedded == null ? start.get() : embedded.startTakingFirstSteps(start));
  }

  private Supplier<String> startOf(String agentKey, String question, String businessKey, List<String> latest,
      String answerSchema) {
    RuntimeService runtime = engine.getRuntimeService();
    Map<String, Object> variables = new HashMap<>(ReactAgentProcess.QUESTION.with(question));
    if (answerSchema != null) {
      variables.put(ReactAgentProcess.ANSWER_SCHEMA, answerSchema);
    }
    // by id where the key is unambiguous: the engine takes it from its cache instead of asking the
    // database for the latest version once more; by key across tenants, so the engine says which to pick
    return () -> (latest.size() == 1
        ? runtime.startProcessInstanceById(latest.get(0), businessKey, variables)
        : runtime.startProcessInstanceByKey(agentKey, businessKey, variables)).getId();
  }

  /** The engine's own check of a start, as the start would make it: the same refusal, word for word. */
  private void requireStartRight(List<String> definitionIds) {
    commands.executor().execute(context -> {
      for (String id : definitionIds) {
        ProcessDefinitionEntity definition = context.getProcessEngineConfiguration().getDeploymentCache()
            .findDeployedProcessDefinitionById(id);
        context.getProcessEngineConfiguration().getCommandCheckers()
            .forEach(checker -> checker.checkCreateProcessInstance(definition));
      }
      return null;
    });
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
