package dev.agentloop.internal.agent.loop;

import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.Steps;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.agent.loop.CallObserver.Observed;
import dev.agentloop.internal.agent.loop.TaskOutcomes.Written;
import dev.agentloop.internal.resilience.EscapeException;
import dev.agentloop.internal.telemetry.ToolSpans;
import dev.agentloop.internal.tool.ToolRegistry;
import dev.agentloop.internal.tool.ToolRunner;
import dev.agentloop.internal.trace.NewStep;
import dev.agentloop.internal.trace.StepCost;
import dev.agentloop.internal.trace.Usage;
import dev.agentloop.internal.trace.step.Action;
import dev.agentloop.internal.trace.step.Observation;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.stream.Collectors;

/**
 * Runs the tool calls of the current turn that have no observation yet, side by side, and observes
 * each in the order the model made them. Whatever goes wrong with a call (unknown tool, arguments
 * that are no JSON object or break the schema, a tool that throws or hangs, a tool whose circuit
 * breaker is open, a person's rejection) becomes an error observation the model reads next
 * ({@link CallObserver} observes each local call). A turn
 * without open calls (the model's reply could not be used) observes nothing.
 *
 * <p>The run leaves its loop instead when the calls, local and remote, would go past its tool-call
 * budget ({@code BUDGET_EXHAUSTED}; the calls are observed as not run), or when the model calls a tool
 * again after it was told that the tool is unavailable ({@code TOOL_UNAVAILABLE}; with all
 * observations). Calls of remote tools that may run are left open for remote workers
 * ({@link RemoteToolTasks}), calls of other agents for their child runs ({@link AgentCalls}). Thread-safe.
 */
public class CallDispatcher {

  private final RemoteToolTasks remoteCalls;
  private final AgentCalls agentCalls;
  private final EscapeChecks checks;
  private final CallReplay replay;
  private final CallObserver observer;

  /** @param replay answers the calls of replayed runs (an evaluation's candidates) instead of running them */
  public CallDispatcher(ToolRegistry tools, ToolRunner runner, Router router, RemoteToolTasks remoteCalls, AgentCalls agentCalls,
      EscapeChecks checks, ToolSpans spans, CallReplay replay) {
    this.remoteCalls = remoteCalls;
    this.agentCalls = agentCalls;
    this.checks = checks;
    this.replay = replay;
    this.observer = new CallObserver(tools, runner, router, spans, replay);
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
    int runNow = (int) local.stream().filter(call -> observer.runs(call, turn, settings)).count();
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
            ? CallObserver.written(Observation.error(call, refused.get(call.callId()), Observation.NOT_RUN),
                Steps.AGENTLOOP).toCompletableFuture()
            : observer.traced(state, call, turn, settings, replayed).toCompletableFuture())
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
}
