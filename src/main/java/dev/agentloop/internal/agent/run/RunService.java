package dev.agentloop.internal.agent.run;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.internal.agent.EvaluationKeys;
import dev.agentloop.internal.agent.definition.AgentDefinitions;
import dev.agentloop.api.AgentRuns;
import dev.agentloop.api.ConversationTurn;
import dev.agentloop.api.RunStatus;
import dev.agentloop.api.RunView;
import dev.agentloop.api.UnknownAgentException;
import dev.agentloop.internal.llm.ModelPrices;
import dev.agentloop.internal.llm.limits.ModelQueue;
import dev.agentloop.internal.trace.ConversationClaims;
import dev.agentloop.internal.trace.Decision;
import dev.agentloop.internal.trace.DecisionLog;
import dev.agentloop.internal.trace.RunInsights;
import dev.agentloop.internal.trace.RunQuery;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.StepStore;
import dev.agentloop.internal.worker.ExternalTaskWorker;
import java.util.List;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.history.HistoricProcessInstance;
import org.springframework.beans.factory.ObjectProvider;

/**
 * Starts agent runs and tells how they stand: {@link AgentRuns}, the API a host calls, plus what AgentLoop's own
 * layers read besides (a run's trace, its decisions, searches): the service behind the REST resource and any Java
 * code embedding AgentLoop. Starting is {@link RunStarts}, a run's view {@link RunViews}; the searches and the
 * trace are read here. Thread-safe.
 */
public class RunService implements AgentRuns {

  private final ProcessEngine engine;
  private final StepStore store;
  private final RunInsights insights;
  private final DecisionLog decisions;
  private final EngineCommands commands;
  private final RunStarts starts;
  private final RunInEngine inEngine;
  private final RunViews views;

  public RunService(ProcessEngine engine, StepStore store, AgentDefinitions definitions, RunInsights insights,
      DecisionLog decisions, ModelPrices prices, ObjectProvider<ExternalTaskWorker<?>> worker,
      ConversationClaims claims, ModelQueue queue) {
    this.engine = engine;
    this.store = store;
    this.insights = insights;
    this.decisions = decisions;
    this.commands = new EngineCommands(engine);
    this.starts = new RunStarts(engine, definitions, commands, worker, claims);
    this.inEngine = new RunInEngine(engine, commands);
    this.views = new RunViews(engine, inEngine, store, definitions, insights, decisions, prices, commands, queue);
  }

  /**
   * Starts a run of the latest version of an agent.
   *
   * @return the run id, which is the process instance id
   * @throws UnknownAgentException when no agent with that key is deployed
   */
  public String start(String agentKey, String question) {
    return start(agentKey, question, null);
  }

  /**
   * Starts a run under a conversation id of the caller's (the process instance's business key), by
   * which the run is found again ({@link #runsOfConversation}).
   *
   * @param conversationId {@code null}: none
   * @throws ConversationInUseException when an open run holds the id already, or took it while this run
   *     started: the id's claim is written in the database with the run's start, so of two starts with one
   *     id, on one node or on several, exactly one runs and the other leaves nothing behind
   */
  public String start(String agentKey, String question, String conversationId) {
    return start(agentKey, question, conversationId, null);
  }

  /**
   * Starts a run whose answers must match {@code answerSchema} instead of the agent's own answer schema.
   *
   * @param conversationId {@code null}: none
   * @param answerSchema a JSON Schema of an object; {@code null}: the agent's own
   * @throws IllegalArgumentException when {@code answerSchema} is no answer schema, saying why; nothing is started
   */
  public String start(String agentKey, String question, String conversationId, JsonNode answerSchema) {
    return starts.start(agentKey, question, conversationId, answerSchema);
  }

  @Override
  public String startWithAnswerSchema(String agentKey, String question, JsonNode answerSchema) {
    return start(agentKey, question, null, answerSchema);
  }

  /**
   * Starts a run of an evaluation's candidate ({@link dev.agentloop.internal.agent.EvaluationKeys}), in the caller's
   * transaction where there is one; for the evaluations only.
   *
   * @return the run id
   */
  public String startCandidate(String candidateKey, String question) {
    return starts.startCandidate(candidateKey, question);
  }

  /**
   * The runs started under a conversation id, open or ended, newest first; runs that another run called
   * (which carry their caller's id) are left out.
   */
  public List<String> runsOfConversation(String conversationId) {
    return commands.withoutAuthorization(() -> engine.getHistoryService().createHistoricProcessInstanceQuery()
        .processInstanceBusinessKey(conversationId).rootProcessInstances().orderByProcessInstanceStartTime().desc()
        .list().stream().map(HistoricProcessInstance::getId).toList());
  }

  /**
   * The keys of all deployed agent processes, sorted. Whoever asks sees them all: a user who may
   * not start an agent is told so by the engine when trying, rather than that it does not exist.
   */
  public List<String> deployedAgents() {
    return starts.deployedAgents();
  }

  /** Whether any run of this agent is stored: runs of an agent no longer deployed can still be searched. */
  public boolean hasRuns(String agentKey) {
    // an evaluation's candidate runs are shown with their evaluation, in no list of runs
    return !EvaluationKeys.isCandidate(agentKey) && !store.recentRuns(agentKey, false, 1).isEmpty();
  }

  /** @throws dev.agentloop.api.UnknownRunException when there is no such run */
  public void requireRun(String runId) {
    store.run(runId);
  }

  /** @throws dev.agentloop.api.UnknownRunException when there is no such run */
  public RunView view(String runId) {
    return views.view(runId);
  }

  /**
   * What a running run waits for: the keys of its open user tasks, else {@link RunView#FOLLOW_UP} when it
   * waits for its next question; empty while the agent works. Asks the engine only.
   */
  public List<String> waitingFor(String runId) {
    return inEngine.waitingFor(runId);
  }

  /**
   * Whether the run is a conversation waiting for its next question: its instance has a subscription
   * to the follow-up message (at {@link dev.agentloop.internal.agent.ReactAgentProcess#AWAIT_FOLLOW_UP}).
   */
  public boolean waitsForFollowUp(String runId) {
    return inEngine.waitsForFollowUp(runId);
  }

  /** The run's turns on its active path, oldest first. */
  public List<ConversationTurn> turns(String runId) {
    return views.turns(runId);
  }

  /** What people decided on the run's steps without writing one, in the order they decided. */
  public List<Decision> decisions(String runId) {
    return decisions.of(runId);
  }

  /**
   * The runs of an agent that match a search, newest first, one page of them.
   *
   * @param waitingOrFailed keep only runs that wait for a person ({@code WAITING}) or have an incident
   *     ({@code FAILED}): statuses the engine knows, so they are filtered after the page is read; {@code null}: any
   */
  public SearchResult search(RunQuery query, RunStatus waitingOrFailed) {
    RunInsights.Page page = insights.search(query);
    List<RunView> found = page.runs().stream().map(run -> view(run.runId()))
        .filter(view -> waitingOrFailed == null || view.status() == waitingOrFailed).toList();
    return new SearchResult(found, page.total());
  }

  /** @param total how many runs match the stored criteria, on all pages */
  public record SearchResult(List<RunView> runs, long total) {}

  /** The most recent runs of an agent, newest first; only those that ended when {@code finished}. */
  public List<RunView> recent(String agentKey, boolean finished, int limit) {
    return store.recentRuns(agentKey, finished, limit).stream().map(run -> view(run.runId())).toList();
  }

  /**
   * The run's trace: the active path root first, or with {@code allBranches} every step ever
   * written, superseded ones included, in the order they were written.
   */
  public List<Step> trace(String runId, boolean allBranches) {
    store.run(runId);
    return allBranches ? store.allSteps(runId) : store.activePath(runId);
  }
}
