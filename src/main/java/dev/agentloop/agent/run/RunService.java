package dev.agentloop.agent.run;

import dev.agentloop.agent.ReactAgentProcess;
import dev.agentloop.agent.compose.ChildRunEnded;
import dev.agentloop.agent.definition.AgentDefinitions;
import dev.agentloop.api.ActiveStep;
import dev.agentloop.api.AgentRuns;
import dev.agentloop.api.BudgetUse;
import dev.agentloop.api.ConversationTurn;
import dev.agentloop.api.RunCosts;
import dev.agentloop.api.RunMoney;
import dev.agentloop.api.RunStatus;
import dev.agentloop.api.RunView;
import dev.agentloop.api.UnknownAgentException;
import dev.agentloop.api.UnknownRunException;
import dev.agentloop.llm.ModelPrices;
import dev.agentloop.resilience.EscapeLimits;
import dev.agentloop.trace.ConversationClaims;
import dev.agentloop.trace.Decision;
import dev.agentloop.trace.DecisionLog;
import dev.agentloop.trace.RunInsights;
import dev.agentloop.trace.RunQuery;
import dev.agentloop.trace.RunRecord;
import dev.agentloop.trace.Step;
import dev.agentloop.trace.StepKind;
import dev.agentloop.trace.StepStore;
import dev.agentloop.trace.step.FinalAnswer;
import dev.agentloop.trace.step.FollowUp;
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
 * Starts agent runs and tells how they stand: {@link AgentRuns}, the API a host calls, plus what AgentLoop's own
 * layers read besides (a run's trace, its decisions, searches): the service behind the REST resource and any Java
 * code embedding AgentLoop. Thread-safe.
 */
public class RunService implements AgentRuns {

  private final ProcessEngine engine;
  private final StepStore store;
  private final AgentDefinitions definitions;
  private final RunInsights insights;
  private final DecisionLog decisions;
  private final ActiveSteps activeSteps;
  private final ModelPrices prices;
  private final ConversationStarts conversations;
  /** The embedded worker, where this node has one: it takes a new run's first step as the run starts. */
  private final ObjectProvider<ExternalTaskWorker<?>> worker;

  public RunService(ProcessEngine engine, StepStore store, AgentDefinitions definitions, RunInsights insights,
      DecisionLog decisions, ModelPrices prices, ObjectProvider<ExternalTaskWorker<?>> worker,
      ConversationClaims claims) {
    this.engine = engine;
    this.store = store;
    this.definitions = definitions;
    this.insights = insights;
    this.decisions = decisions;
    this.activeSteps = new ActiveSteps(engine, store);
    this.worker = worker;
    this.prices = prices;
    this.conversations = new ConversationStarts(engine.getRuntimeService(), commands(), claims);
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
    List<String> latest = latestAgentVersions(agentKey);
    if (latest.isEmpty()) {
      throw new UnknownAgentException(agentKey, deployedAgents());
    }
    Supplier<String> start = startOf(agentKey, question, conversationId, latest);
    ExternalTaskWorker<?> embedded = worker.getIfAvailable();
    if (conversationId == null) {
      return embedded == null ? start.get() : embedded.startTakingFirstSteps(start);
    }
    // one transaction for the instance and its claim, whether the worker takes the first steps or not
    return conversations.start(conversationId, start, claimed -> commands().execute(context ->
        embedded == null ? claimed.get() : embedded.startTakingFirstSteps(claimed)));
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

  /**
   * The runs started under a conversation id, open or ended, newest first; runs that another run called
   * (which carry their caller's id) are left out.
   */
  public List<String> runsOfConversation(String conversationId) {
    return withoutAuthorization(() -> engine.getHistoryService().createHistoricProcessInstanceQuery()
        .processInstanceBusinessKey(conversationId).rootProcessInstances().orderByProcessInstanceStartTime().desc()
        .list().stream().map(HistoricProcessInstance::getId).toList());
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
    return commands().execute(context -> context.runWithoutAuthorization(query::get));
  }

  /** The engine's commands in the caller's transaction, or in one of their own where there is none. */
  private CommandExecutor commands() {
    return ((ProcessEngineConfigurationImpl) engine.getProcessEngineConfiguration()).getCommandExecutorTxRequired();
  }

  /** Whether any run of this agent is stored: runs of an agent no longer deployed can still be searched. */
  public boolean hasRuns(String agentKey) {
    return !store.recentRuns(agentKey, false, 1).isEmpty();
  }

  /** @throws dev.agentloop.api.UnknownRunException when there is no such run */
  public void requireRun(String runId) {
    store.run(runId);
  }

  /** @throws dev.agentloop.api.UnknownRunException when there is no such run */
  public RunView view(String runId) {
    RunRecord run = store.run(runId);
    RunStatus status = run.status();
    List<String> waitingFor = List.of();
    String incident = null;
    if (status == RunStatus.RUNNING) {
      // how the run stands is the same for everyone who may read it, whatever tasks they may see
      List<Incident> incidents = withoutAuthorization(() ->
          engine.getRuntimeService().createIncidentQuery().processInstanceId(runId).list());
      waitingFor = waitingFor(runId);
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
    HistoricProcessInstance instance = historic(runId);
    RunCosts totals = insights.totals(runId);
    return new RunView(run.runId(), run.agentKey(), run.question(), status, run.statusReason(), answer, waitingFor,
        incident, run.head().stepCount(), run.modelCalls(), run.toolCalls(), run.tokens(), run.createdAt(), run.endedAt(),
        run.head().version(), from == null ? null : from.runId(), from == null ? null : from.fromStep(),
        from == null ? null : from.by(), from == null ? null : from.reason(), store.restartsOf(runId), active,
        budgets(run, instance), totals, money(runId), endedBy(run),
        turns(run, waitingFor.contains(RunView.FOLLOW_UP), instance, totals), conversationId(instance),
        calledBy(run, instance));
  }

  /** What the run's model calls cost by the price table; {@code null} without one (no query then). */
  private RunMoney money(String runId) {
    return prices.any() ? RunPricing.of(insights.costs(runId).values(), prices) : null;
  }

  /**
   * The agent run whose call this run answers: its caller by Camunda's super process instance, or, for a child
   * started again after an edit (a new instance of its own), the caller its answer goes to.
   */
  private String calledBy(RunRecord run, HistoricProcessInstance instance) {
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
   * What a running run waits for: the keys of its open user tasks, else {@link RunView#FOLLOW_UP} when it
   * waits for its next question; empty while the agent works. Asks the engine only.
   */
  public List<String> waitingFor(String runId) {
    List<String> tasks = withoutAuthorization(() -> engine.getTaskService().createTaskQuery().processInstanceId(runId)
        .list()).stream().map(Task::getTaskDefinitionKey).toList();
    return !tasks.isEmpty() || !waitsForFollowUp(runId) ? tasks : List.of(RunView.FOLLOW_UP);
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
    return turns(run, run.status() == RunStatus.RUNNING && waitsForFollowUp(runId), historic(runId),
        insights.totals(runId));
  }

  /** The run's process instance in the engine's history, {@code null} where the engine keeps none. */
  private HistoricProcessInstance historic(String runId) {
    return withoutAuthorization(() -> engine.getHistoryService()
        .createHistoricProcessInstanceQuery().processInstanceId(runId).singleResult());
  }

  /** The business key a run was started under, unless it is its caller's (a called run carries it on). */
  private static String conversationId(HistoricProcessInstance instance) {
    return instance == null || instance.getSuperProcessInstanceId() != null ? null : instance.getBusinessKey();
  }

  /**
   * @param totals what the run's calls cost: a run of one turn on its active path owns them all (its superseded
   *     branches forked in that turn), so only a conversation's calls are read again turn by turn
   */
  private List<ConversationTurn> turns(RunRecord run, boolean waitingForFollowUp, HistoricProcessInstance instance,
      RunCosts totals) {
    List<Step> path = store.questionsAndAnswers(run.runId(), true);
    Map<Integer, RunCosts> costs = path.stream().anyMatch(step -> step.content() instanceof FollowUp)
        ? insights.turnCosts(run.runId()) : Map.of(1, totals);
    return Conversation.turns(run, path,
        instance == null ? null : instance.getStartUserId(),
        waitingForFollowUp || Conversation.acceptedAtEnd(run.status()), costs);
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
  private BudgetUse budgets(RunRecord run, HistoricProcessInstance instance) {
    EscapeLimits limits = instance == null ? null : definitions.settings(instance.getProcessDefinitionId()).limits();
    return new BudgetUse(
        new BudgetUse.Budget(run.modelCalls(), limits == null ? null : (long) limits.maxModelCalls()),
        new BudgetUse.Budget(run.toolCalls(), limits == null ? null : (long) limits.maxToolCalls()),
        new BudgetUse.Budget(run.tokens(), limits == null || limits.maxTokens() <= 0 ? null : limits.maxTokens()));
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
