package dev.agentloop.internal.agent.run;

import dev.agentloop.api.ActiveStep;
import dev.agentloop.api.BudgetUse;
import dev.agentloop.api.ConversationTurn;
import dev.agentloop.api.RunCosts;
import dev.agentloop.api.RunMoney;
import dev.agentloop.api.RunStatus;
import dev.agentloop.api.RunView;
import dev.agentloop.api.UnknownRunException;
import dev.agentloop.internal.agent.compose.ChildRunEnded;
import dev.agentloop.internal.agent.definition.AgentDefinitions;
import dev.agentloop.internal.budget.Budget;
import dev.agentloop.internal.budget.Spending;
import dev.agentloop.internal.llm.ModelPrices;
import dev.agentloop.internal.llm.limits.ModelQueue;
import dev.agentloop.internal.trace.Decision;
import dev.agentloop.internal.trace.DecisionLog;
import dev.agentloop.internal.trace.RunInsights;
import dev.agentloop.internal.trace.RunRecord;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.step.StepKind;
import dev.agentloop.internal.trace.StepStore;
import dev.agentloop.internal.trace.step.FinalAnswer;
import dev.agentloop.internal.trace.step.FollowUp;
import java.util.List;
import java.util.Map;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.history.HistoricProcessInstance;
import org.camunda.bpm.engine.runtime.Incident;

/**
 * How a run stands, as {@link RunView} tells it: its status as the engine sees it (waiting, failed), its answer,
 * budgets, costs and money, turns, who ended it and who called it. Apart from starting and searching runs because
 * it joins the run's record with what the engine knows of it ({@link RunInEngine}), query by query. Thread-safe.
 */
final class RunViews {

  private final RunInEngine inEngine;
  private final StepStore store;
  private final AgentDefinitions definitions;
  private final RunInsights insights;
  private final DecisionLog decisions;
  private final ActiveSteps activeSteps;
  private final ModelPrices prices;
  private final EngineCommands commands;

  RunViews(ProcessEngine engine, RunInEngine inEngine, StepStore store, AgentDefinitions definitions,
      RunInsights insights, DecisionLog decisions, ModelPrices prices, EngineCommands commands, ModelQueue queue) {
    this.inEngine = inEngine;
    this.store = store;
    this.definitions = definitions;
    this.insights = insights;
    this.decisions = decisions;
    this.activeSteps = new ActiveSteps(engine, store, queue);
    this.prices = prices;
    this.commands = commands;
  }

  RunView view(String runId) {
    RunRecord run = store.run(runId);
    RunStatus status = run.status();
    List<String> waitingFor = List.of();
    String incident = null;
    if (status == RunStatus.RUNNING) {
      List<Incident> incidents = inEngine.incidents(runId);
      waitingFor = inEngine.waitingFor(runId);
      // the run's row was read before the engine: a step and the task it leads to commit together, so read the row
      // again, that the version a client edits on is never older than the task the view says the run waits for
      run = store.run(runId);
      if (run.status() != RunStatus.RUNNING) {
        return view(runId);
      }
      if (!incidents.isEmpty()) {
        status = RunStatus.FAILED;
        incident = incidents.get(0).getIncidentMessage();
      } else if (!waitingFor.isEmpty()) {
        status = RunStatus.WAITING;
      }
    }
    FinalAnswer latest = store.latestActive(runId, StepKind.FINAL_ANSWER).map(step -> (FinalAnswer) step.content())
        .orElse(null);
    String answer = latest == null ? null : latest.text();
    RunRecord.Restart from = run.restartedFrom();
    ActiveStep active = run.status() == RunStatus.RUNNING
        ? commands.withoutAuthorization(() -> activeSteps.of(runId)) : null;
    HistoricProcessInstance instance = inEngine.historic(runId);
    RunCosts totals = insights.totals(runId);
    Integer version = inEngine.agentVersion(runId, instance);
    return new RunView(run.runId(), run.agentKey(), version, run.question(), status, run.statusReason(), answer, waitingFor,
        incident, run.head().stepCount(), run.modelCalls(), run.toolCalls(), run.tokens(), run.createdAt(), run.endedAt(),
        run.head().version(), from == null ? null : from.runId(), from == null ? null : from.fromStep(),
        from == null ? null : from.by(), from == null ? null : from.reason(), store.restartsOf(runId), active,
        budgets(run, instance), totals, money(runId), endedBy(run),
        turns(run, waitingFor.contains(RunView.FOLLOW_UP), instance, totals), conversationId(instance),
        calledBy(run, instance), latest == null ? null : latest.data());
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
      String reanswers = inEngine.reanswers(run.runId());
      caller = reanswers == null ? null : ChildRunEnded.of(reanswers, run.runId()).callerRun();
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

  List<ConversationTurn> turns(String runId) {
    RunRecord run = store.run(runId);
    return turns(run, run.status() == RunStatus.RUNNING && inEngine.waitsForFollowUp(runId),
        inEngine.historic(runId), insights.totals(runId));
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

  /**
   * Used / limit: what the run and the runs it called used, as they used it, against the run's budget (its own where
   * a person raised it or its caller capped it, else that of the agent version it runs or ran on), and its own share.
   */
  private BudgetUse budgets(RunRecord run, HistoricProcessInstance instance) {
    Budget agents = instance == null ? null : definitions.settings(instance.getProcessDefinitionId()).budget();
    Budget limits = run.budget() != null ? run.budget() : agents;
    Spending calls = run.tree().calls();
    return new BudgetUse(
        new BudgetUse.Amount(run.modelCalls() + calls.modelCalls(),
            limits == null ? null : (long) limits.maxModelCalls(), run.modelCalls()),
        new BudgetUse.Amount(run.toolCalls() + calls.toolCalls(),
            limits == null ? null : (long) limits.maxToolCalls(), run.toolCalls()),
        new BudgetUse.Amount(run.tokens() + calls.tokens(),
            limits == null || !limits.limitsTokens() ? null : limits.maxTokens(), run.tokens()));
  }
}
