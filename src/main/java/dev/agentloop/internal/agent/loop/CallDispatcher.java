package dev.agentloop.internal.agent.loop;

import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.Steps;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.agent.loop.TaskOutcomes.Written;
import dev.agentloop.internal.resilience.EscapeException;
import dev.agentloop.internal.telemetry.RunTraces;
import dev.agentloop.internal.telemetry.ToolSpans;
import dev.agentloop.internal.tool.ToolOutcome.FailureKind;
import dev.agentloop.internal.tool.ToolOutcome;
import dev.agentloop.internal.tool.ToolRegistry;
import dev.agentloop.internal.tool.ToolRunner;
import dev.agentloop.internal.trace.NewStep;
import dev.agentloop.internal.trace.StepCost;
import dev.agentloop.internal.trace.Usage;
import dev.agentloop.internal.trace.step.Action;
import dev.agentloop.internal.trace.step.Approval;
import dev.agentloop.internal.trace.step.Observation;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.stream.Collectors;

/**
 * Runs the tool calls of the current turn that have no observation yet, side by side, and observes
 * each in the order the model made them. Whatever goes wrong with a call (unknown tool, arguments
 * that are no JSON object or break the schema, a tool that throws or hangs, a tool whose circuit
 * breaker is open, a person's rejection) becomes an error observation the model reads next. A turn
 * without open calls (the model's reply could not be used) observes nothing.
 *
 * <p>The run leaves its loop instead when the calls, local and remote, would go past its tool-call
 * budget ({@code BUDGET_EXHAUSTED}; the calls are observed as not run), or when the model calls a tool
 * again after it was told that the tool is unavailable ({@code TOOL_UNAVAILABLE}; with all
 * observations). Calls of remote tools that may run are left open for remote workers
 * ({@link RemoteToolTasks}), calls of other agents for their child runs ({@link AgentCalls}). Thread-safe.
 */
public class CallDispatcher {

  private final ToolRegistry tools;
  private final ToolRunner runner;
  private final Router router;
  private final RemoteToolTasks remoteCalls;
  private final AgentCalls agentCalls;
  private final EscapeChecks checks;
  private final ToolSpans spans;
  private final CallReplay replay;

  public CallDispatcher(ToolRegistry tools, ToolRunner runner, Router router, RemoteToolTasks remoteCalls, AgentCalls agentCalls,
      EscapeChecks checks) {
    this(tools, runner, router, remoteCalls, agentCalls, checks, new ToolSpans(RunTraces.none()), CallReplay.NONE);
  }

  /** @param replay answers the calls of replayed runs (an evaluation's candidates) instead of running them */
  public CallDispatcher(ToolRegistry tools, ToolRunner runner, Router router, RemoteToolTasks remoteCalls, AgentCalls agentCalls,
      EscapeChecks checks, ToolSpans spans, CallReplay replay) {
    this.spans = spans;
    this.replay = replay;
    this.tools = tools;
    this.runner = runner;
    this.router = router;
    this.remoteCalls = remoteCalls;
    this.agentCalls = agentCalls;
    this.checks = checks;
  }

  /**
   * What the calls came to: the observations and their cost, where the loop goes, and the escape
   * when the run leaves its loop instead (then {@code route} does not apply).
   */
  record Acted(Written written, Route route, EscapeException escape, List<String> agentCalls) {

    Acted(Written written, Route route, EscapeException escape) {
      this(written, route, escape, List.of());
    }

    /**
     * What the task completes with: the route, and for calls of agents the ids of those calls, in their order, which
     * the multi-instance {@code callAgent} starts one child run for each.
     */
    Map<String, Object> variables() {
      if (route != Route.CALL_AGENT) {
        return route.asVariable();
      }
      Map<String, Object> variables = new HashMap<>(route.asVariable());
      variables.putAll(ReactAgentProcess.AGENT_CALLS.transientWith(agentCalls));
      return variables;
    }
  }

  CompletionStage<Acted> run(LoopState state, AgentSettings settings) {
    Turn turn = state.turn();
    // a replayed run's calls are all answered here, from the record: none goes to a remote worker or a child run
    boolean replayed = replay.replays(state.run().agentKey());
    Set<String> remote = replayed ? Set.of()
        : remoteCalls.pending(turn, settings).stream().map(Action::callId).collect(Collectors.toSet());
    List<Action> ofAgents = replayed ? List.of() : agentCalls.pending(turn, settings);
    // too deep below a top-level run, or an agent its starter may not start: such calls are observed here, as refused
    Map<String, String> refused = ofAgents.isEmpty() ? Map.of() : agentCalls.refusals(state.run().runId(), ofAgents);
    Set<String> childRuns = ofAgents.stream().map(Action::callId).filter(id -> !refused.containsKey(id))
        .collect(Collectors.toSet());
    Route route = !remote.isEmpty() ? Route.CALL_REMOTE_TOOL : !childRuns.isEmpty() ? Route.CALL_AGENT : Route.THINK;
    List<Action> local = turn.open().stream()
        .filter(action -> !remote.contains(action.callId()) && !childRuns.contains(action.callId())).toList();
    int runNow = (int) local.stream().filter(call -> runs(call, turn, settings)).count();
    try {
      // the remote calls of the turn count too: checked again each time a remote call is back, the sum stays the same
      if (!local.isEmpty() || !remote.isEmpty()) {
        checks.beforeToolCalls(state, settings, runNow + remote.size() + childRuns.size(), runNow);
      }
    } catch (EscapeException e) {
      List<NewStep> notRun = turn.open().stream().map(call -> Steps.observation(Observation.error(call,
          "not run: " + e.getMessage(), Observation.NOT_RUN), Steps.AGENTLOOP)).toList();
      return CompletableFuture.completedFuture(new Acted(new Written(notRun, Usage.NONE), route, e));
    }
    List<CompletableFuture<Observed>> observations = local.stream()
        .map(call -> refused.containsKey(call.callId())
            ? written(Observation.error(call, refused.get(call.callId()), Observation.NOT_RUN), Steps.AGENTLOOP)
                .toCompletableFuture()
            : traced(state, call, turn, settings, replayed).toCompletableFuture())
        .toList();
    return CompletableFuture.allOf(observations.toArray(CompletableFuture[]::new)).thenApply(done -> {
      List<Observed> observed = observations.stream().map(CompletableFuture::join).toList();
      if (!local.isEmpty() || !remote.isEmpty()) {
        checks.toolCallsNotRun(state, runNow - (int) observed.stream().filter(Observed::toolRan).count());
      }
      Written written = new Written(observed.stream().map(Observed::step).toList(),
          Usage.toolCalls((int) observed.stream().filter(Observed::toolRan).count(),
              observed.stream().map(o -> o.latencyMillis() == null ? null : StepCost.toolCall(o.latencyMillis()))
                  .toList()));
      EscapeException escape = observed.stream()
          .filter(o -> o.unavailable() != null && checks.toldBefore(state, o.unavailable()))
          .findFirst()
          .map(o -> new EscapeException(EscapeException.Reason.TOOL_UNAVAILABLE, "The model called '" + o.unavailable()
              + "' again although it was told that the tool is unavailable: its circuit breaker is open after"
              + " repeated failures."))
          .orElse(null);
      return new Acted(written, route, escape, ofAgents.stream().map(Action::callId).filter(childRuns::contains)
          .toList());
    });
  }

  /**
   * An observation to write, whether a tool ran for it (refused or rejected calls cost no tool call),
   * the tool's name when its breaker refused the call, and how long the call took ({@code null}: nothing ran).
   */
  record Observed(NewStep step, boolean toolRan, String unavailable, Long latencyMillis) {}

  private boolean runs(Action call, Turn turn, AgentSettings settings) {
    return !turn.rejected(call) && refusal(turn.asRun(call), settings).isEmpty();
  }

  /** {@link #observe} in the call's {@code execute_tool} span, where the run is traced. */
  private CompletionStage<Observed> traced(LoopState state, Action call, Turn turn, AgentSettings settings,
      boolean replayed) {
    String runId = replayed ? state.run().runId() : null;
    return spans.execute(state.run().runId(), call.callId(), call.tool(), turn.asRun(call).argumentsText(),
        () -> observe(call, turn, settings, runId), CallDispatcher::errorType,
        observed -> observed.step().content() instanceof Observation o ? o.text() : null);
  }

  /** What went wrong, as the observation says it ({@code not_run}, {@code timed_out} …), or {@code null}. */
  private static String errorType(Observed observed) {
    if (!(observed.step().content() instanceof Observation observation) || !observation.isError()) {
      return null;
    }
    return observation.failure() == null || observation.failure().isBlank() ? "tool_error" : observation.failure();
  }

  /** Runs a call as the model made it, or as a person edited it; a rejected call is observed as such. */
  public CompletionStage<Observed> observe(Action action, Turn turn, AgentSettings settings) {
    return observe(action, turn, settings, null);
  }

  /** @param replayedRun the run whose calls are replayed ({@link CallReplay}), or {@code null}: the call runs */
  private CompletionStage<Observed> observe(Action action, Turn turn, AgentSettings settings, String replayedRun) {
    Approval approval = turn.approvals().get(action.callId());
    if (approval != null && approval.rejects()) {
      String reason = approval.reason() == null || approval.reason().isBlank() ? "" : ": " + approval.reason();
      return written(Observation.error(action, "not run, rejected by " + approval.decidedBy() + reason),
          approval.decidedBy());
    }
    if (approval == null && router.needsApproval(action, settings)) {
      // reached act without approveAction, e.g. by a modification: never run it unapproved
      return written(Observation.error(action, "not run: a call of " + action.tool()
          + " needs a person's approval and had none; call it again to ask for it"), Steps.AGENTLOOP);
    }
    Action call = turn.asRun(action);
    Optional<ToolOutcome.Failure> refusal = refusal(call, settings);
    if (refusal.isPresent()) {
      return written(Observation.error(call, refusal.get().message(), refusal.get().kind()), Steps.AGENTLOOP);
    }
    Optional<CallReplay.Replayed> replayed = replayedRun == null ? Optional.empty() : replay.observe(replayedRun, call);
    if (replayed.isPresent()) {
      return CompletableFuture.completedFuture(new Observed(Steps.observation(replayed.get().observation(),
          replayed.get().author()), replayed.get().countsAsCall(), null, null));
    }
    long started = CallCosts.start();
    return runner.run(call.tool(), call.arguments()).thenApply(outcome -> new Observed(
        Steps.observation(observation(call, outcome), outcome.toolRan() ? call.tool() : Steps.AGENTLOOP),
        outcome.toolRan(), outcome.failed() && outcome.failure().kind() == FailureKind.UNAVAILABLE ? call.tool() : null,
        outcome.toolRan() ? CallCosts.millisSince(started) : null));
  }

  private Optional<ToolOutcome.Failure> refusal(Action call, AgentSettings settings) {
    return tools.refusal(call.tool(), call.argumentsAsWritten(), settings::allows);
  }

  private static CompletionStage<Observed> written(Observation observation, String author) {
    return CompletableFuture.completedFuture(new Observed(Steps.observation(observation, author), false, null, null));
  }

  private static Observation observation(Action action, ToolOutcome outcome) {
    return outcome.failed() ? Observation.error(action, outcome.failure().message(), outcome.failure().kind())
        : Observation.result(action, outcome.result());
  }
}
