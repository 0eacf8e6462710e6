package dev.agentloop.agent;

import dev.agentloop.resilience.RunLimits;
import dev.agentloop.trace.Decision;
import dev.agentloop.trace.DecisionLog;
import dev.agentloop.trace.FinalAnswer;
import dev.agentloop.trace.RunInsights;
import dev.agentloop.trace.RunQuery;
import dev.agentloop.trace.RunRecord;
import dev.agentloop.trace.RunStatus;
import dev.agentloop.trace.Step;
import dev.agentloop.trace.StepKind;
import dev.agentloop.trace.StepStore;
import dev.agentloop.trace.UnknownRunException;
import dev.agentloop.worker.ExternalTaskWorker;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.RuntimeService;
import org.camunda.bpm.engine.history.HistoricProcessInstance;
import org.camunda.bpm.engine.history.HistoricVariableInstance;
import org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl;
import org.camunda.bpm.engine.impl.interceptor.CommandExecutor;
import org.camunda.bpm.engine.repository.ProcessDefinition;
import org.camunda.bpm.engine.runtime.Incident;
import org.camunda.bpm.engine.task.Task;
import org.springframework.beans.factory.ObjectProvider;

/**
 * Starts agent runs and tells how they stand: the public API behind the REST resource and any
 * Java code embedding AgentLoop. Thread-safe.
 */
public class AgentRuns {

  private final ProcessEngine engine;
  private final StepStore store;
  private final AgentDefinitions definitions;
  private final RunInsights insights;
  private final DecisionLog decisions;
  private final ActiveSteps activeSteps;
  /** The embedded worker, where this node has one: it takes a new run's first step as the run starts. */
  private final ObjectProvider<ExternalTaskWorker<?>> worker;

  public AgentRuns(ProcessEngine engine, StepStore store, AgentDefinitions definitions, RunInsights insights,
      DecisionLog decisions, ObjectProvider<ExternalTaskWorker<?>> worker) {
    this.engine = engine;
    this.store = store;
    this.definitions = definitions;
    this.insights = insights;
    this.decisions = decisions;
    this.activeSteps = new ActiveSteps(engine, store);
    this.worker = worker;
  }

  /**
   * Starts a run of the latest version of an agent.
   *
   * @return the run id, which is the process instance id
   * @throws UnknownAgentException when no agent with that key is deployed
   */
  public String start(String agentKey, String question) {
    List<String> latest = latestAgentVersions(agentKey);
    if (latest.isEmpty()) {
      throw new UnknownAgentException(agentKey, deployedAgents());
    }
    RuntimeService runtime = engine.getRuntimeService();
    Map<String, Object> variables = ReactAgentProcess.QUESTION.with(question);
    // by id where the key is unambiguous: the engine takes it from its cache instead of asking the
    // database for the latest version once more; by key across tenants, so the engine says which to pick
    Supplier<String> start = () -> (latest.size() == 1
        ? runtime.startProcessInstanceById(latest.get(0), variables)
        : runtime.startProcessInstanceByKey(agentKey, variables)).getId();
    ExternalTaskWorker<?> embedded = worker.getIfAvailable();
    return embedded == null ? start.get() : embedded.startTakingFirstSteps(start);
  }

  /**
   * The keys of all deployed agent processes, sorted. Whoever asks sees them all: a user who may
   * not start an agent is told so by the engine when trying, rather than that it does not exist.
   */
  public List<String> deployedAgents() {
    return withoutAuthorization(() ->
        engine.getRepositoryService().createProcessDefinitionQuery().latestVersion().list().stream()
            .filter(definition -> definitions.isAgent(definition.getId()))
            .map(ProcessDefinition::getKey)
            .sorted()
            .toList());
  }

  /** The ids of the latest versions of the agent, one per tenant; none when that key is no agent. */
  private List<String> latestAgentVersions(String agentKey) {
    return withoutAuthorization(() ->
        engine.getRepositoryService().createProcessDefinitionQuery().processDefinitionKey(agentKey).latestVersion()
            .list().stream()
            .map(ProcessDefinition::getId)
            .filter(definitions::isAgent)
            .toList());
  }

  private <T> T withoutAuthorization(Supplier<T> query) {
    CommandExecutor commands = ((ProcessEngineConfigurationImpl) engine.getProcessEngineConfiguration())
        .getCommandExecutorTxRequired();
    return commands.execute(context -> context.runWithoutAuthorization(query::get));
  }

  /** Whether any run of this agent is stored: runs of an agent no longer deployed can still be searched. */
  public boolean hasRuns(String agentKey) {
    return !store.recentRuns(agentKey, false, 1).isEmpty();
  }

  /** @throws dev.agentloop.trace.UnknownRunException when there is no such run */
  public void requireRun(String runId) {
    store.run(runId);
  }

  /** @throws dev.agentloop.trace.UnknownRunException when there is no such run */
  public RunView view(String runId) {
    RunRecord run = store.run(runId);
    RunStatus status = run.status();
    List<String> waitingFor = List.of();
    String incident = null;
    if (status == RunStatus.RUNNING) {
      // how the run stands is the same for everyone who may read it, whatever tasks they may see
      List<Incident> incidents = withoutAuthorization(() ->
          engine.getRuntimeService().createIncidentQuery().processInstanceId(runId).list());
      waitingFor = withoutAuthorization(() -> engine.getTaskService().createTaskQuery().processInstanceId(runId).list())
          .stream().map(Task::getTaskDefinitionKey).toList();
      if (waitingFor.isEmpty() && waitsForFollowUp(runId)) {
        waitingFor = List.of(RunView.FOLLOW_UP);
      }
      if (!incidents.isEmpty()) {
        status = RunStatus.FAILED;
        incident = incidents.get(0).getIncidentMessage();
      } else if (!waitingFor.isEmpty()) {
        status = RunStatus.WAITING;
      }
    }
    String answer = store.latestActive(runId, StepKind.FINAL_ANSWER)
        .map(step -> ((FinalAnswer) step.content()).text()).orElse(null);
    RunRecord.Restart from = run.restartedFrom();
    ActiveStep active = run.status() == RunStatus.RUNNING ? withoutAuthorization(() -> activeSteps.of(runId)) : null;
    return new RunView(run.runId(), run.agentKey(), run.question(), status, run.statusReason(), answer, waitingFor,
        incident, run.head().stepCount(), run.modelCalls(), run.toolCalls(), run.tokens(), run.createdAt(), run.endedAt(),
        run.head().version(), from == null ? null : from.runId(), from == null ? null : from.fromStep(),
        from == null ? null : from.by(), from == null ? null : from.reason(), store.restartsOf(runId), active,
        budgets(run), insights.totals(runId), endedBy(run), turns(run, waitingFor.contains(RunView.FOLLOW_UP)),
        calledBy(run));
  }

  /**
   * The agent run whose call this run answers: its caller by Camunda's super process instance, or, for a child
   * started again after an edit (a new instance of its own), the caller its answer goes to.
   */
  private String calledBy(RunRecord run) {
    HistoricProcessInstance instance = withoutAuthorization(() -> engine.getHistoryService()
        .createHistoricProcessInstanceQuery().processInstanceId(run.runId()).singleResult());
    String caller = instance == null ? null : instance.getSuperProcessInstanceId();
    if (caller == null && instance != null) {
      // a query, not a read of the instance: the run may end while it is shown
      HistoricVariableInstance reanswers = withoutAuthorization(() -> engine.getHistoryService()
          .createHistoricVariableInstanceQuery().processInstanceId(run.runId())
          .variableName(ReactAgentProcess.REANSWERS.name()).singleResult());
      caller = reanswers == null || reanswers.getValue() == null ? null
          : ChildRunEnded.of(String.valueOf(reanswers.getValue()), run.runId()).callerRun();
    }
    if (caller == null) {
      return null;
    }
    try {
      return store.run(caller).runId();
    } catch (UnknownRunException e) {
      return null; // a business process that asked the agent: no run of AgentLoop's
    }
  }

  /**
   * Whether the run is a conversation waiting for its next question: its instance has a subscription
   * to the follow-up message (at {@link ReactAgentProcess#AWAIT_FOLLOW_UP}).
   */
  public boolean waitsForFollowUp(String runId) {
    return withoutAuthorization(() -> engine.getRuntimeService().createEventSubscriptionQuery()
        .processInstanceId(runId).eventType("message").eventName(ReactAgentProcess.FOLLOW_UP_MESSAGE).count() > 0);
  }

  /** The run's turns on its active path, oldest first. */
  public List<ConversationTurn> turns(String runId) {
    RunRecord run = store.run(runId);
    return turns(run, run.status() == RunStatus.RUNNING && waitsForFollowUp(runId));
  }

  private List<ConversationTurn> turns(RunRecord run, boolean waitingForFollowUp) {
    HistoricProcessInstance instance = withoutAuthorization(() -> engine.getHistoryService()
        .createHistoricProcessInstanceQuery().processInstanceId(run.runId()).singleResult());
    return Conversation.turns(run, store.questionsAndAnswers(run.runId(), true),
        instance == null ? null : instance.getStartUserId(),
        waitingForFollowUp || Conversation.acceptedAtEnd(run.status()));
  }

  /** The author of the decision that ended the run: the last decision of a run that ended by one. */
  private String endedBy(RunRecord run) {
    if (run.status() != RunStatus.ANSWERED && run.status() != RunStatus.REJECTED && run.status() != RunStatus.STOPPED) {
      return null;
    }
    List<Decision> made = decisions.of(run.runId());
    return made.isEmpty() ? null : made.get(made.size() - 1).author();
  }

  /** What people decided on the run's steps without writing one, in the order they decided. */
  public List<Decision> decisions(String runId) {
    return decisions.of(runId);
  }

  /** Used / limit, the limits of the agent version the run runs (or ran) on. */
  private RunBudgets budgets(RunRecord run) {
    HistoricProcessInstance instance = withoutAuthorization(() -> engine.getHistoryService()
        .createHistoricProcessInstanceQuery().processInstanceId(run.runId()).singleResult());
    RunLimits limits = instance == null ? null : definitions.settings(instance.getProcessDefinitionId()).limits();
    return new RunBudgets(
        new RunBudgets.Budget(run.modelCalls(), limits == null ? null : (long) limits.maxModelCalls()),
        new RunBudgets.Budget(run.toolCalls(), limits == null ? null : (long) limits.maxToolCalls()),
        new RunBudgets.Budget(run.tokens(), limits == null || limits.maxTokens() <= 0 ? null : limits.maxTokens()));
  }

  /**
   * The runs of an agent that match a search, newest first, one page of them.
   *
   * @param waitingOrFailed keep only runs that wait for a person ({@code WAITING}) or have an incident
   *     ({@code FAILED}): statuses the engine knows, so they are filtered after the page is read; {@code null}: any
   */
  public SearchResult search(RunQuery query, RunStatus waitingOrFailed) {
    RunInsights.Page page = insights.search(query);
    List<RunView> views = page.runs().stream().map(run -> view(run.runId()))
        .filter(view -> waitingOrFailed == null || view.status() == waitingOrFailed).toList();
    return new SearchResult(views, page.total());
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
