package dev.agentloop.internal.agent.loop;

import dev.agentloop.internal.agent.Steps;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.telemetry.ToolSpans;
import dev.agentloop.internal.tool.ToolOutcome.FailureKind;
import dev.agentloop.internal.tool.ToolOutcome;
import dev.agentloop.internal.tool.ToolRegistry;
import dev.agentloop.internal.tool.ToolRunner;
import dev.agentloop.internal.trace.NewStep;
import dev.agentloop.internal.trace.step.Action;
import dev.agentloop.internal.trace.step.Approval;
import dev.agentloop.internal.trace.step.Observation;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * One local tool call of a turn, observed: run as the model made it or as a person edited it, in its
 * {@code execute_tool} span, or answered from the record when its run is replayed ({@link CallReplay}). A call that
 * must not run (rejected by a person, needing an approval it lacks, refused by the registry: unknown tool, arguments
 * that break the schema, a tool not allowed or whose circuit breaker is open) is observed as an error, as is a tool
 * that throws or hangs. {@link CallDispatcher} decides which calls of a turn come here. Thread-safe.
 */
final class CallObserver {

  private final ToolRegistry tools;
  private final ToolRunner runner;
  private final Router router;
  private final ToolSpans spans;
  private final CallReplay replay;

  CallObserver(ToolRegistry tools, ToolRunner runner, Router router, ToolSpans spans, CallReplay replay) {
    this.tools = tools;
    this.runner = runner;
    this.router = router;
    this.spans = spans;
    this.replay = replay;
  }

  /**
   * An observation to write, whether a tool ran for it (refused or rejected calls cost no tool call),
   * the tool's name when its breaker refused the call, and how long the call took ({@code null}: nothing ran).
   */
  record Observed(NewStep step, boolean toolRan, String unavailable, Long latencyMillis) {}

  /** Whether the call would run: neither rejected by a person nor refused by the registry. */
  boolean runs(Action call, Turn turn, AgentSettings settings) {
    return !turn.rejected(call) && refusal(turn.asRun(call), settings).isEmpty();
  }

  /** {@link #observe} in the call's {@code execute_tool} span, where the run is traced. */
  CompletionStage<Observed> traced(LoopState state, Action call, Turn turn, AgentSettings settings,
      boolean replayed) {
    String runId = replayed ? state.run().runId() : null;
    return spans.execute(state.run().runId(), call.callId(), call.tool(), turn.asRun(call).argumentsText(),
        () -> observe(call, turn, settings, runId), CallObserver::errorType,
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
  CompletionStage<Observed> observe(Action action, Turn turn, AgentSettings settings) {
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

  /** An observation written without running anything: no tool call is counted. */
  static CompletionStage<Observed> written(Observation observation, String author) {
    return CompletableFuture.completedFuture(new Observed(Steps.observation(observation, author), false, null, null));
  }

  private static Observation observation(Action action, ToolOutcome outcome) {
    return outcome.failed() ? Observation.error(action, outcome.failure().message(), outcome.failure().kind())
        : Observation.result(action, outcome.result());
  }
}
