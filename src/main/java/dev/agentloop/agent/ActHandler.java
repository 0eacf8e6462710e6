package dev.agentloop.agent;

import dev.agentloop.resilience.EscapeException;
import dev.agentloop.resilience.Escapes;
import dev.agentloop.tool.ToolOutcome;
import dev.agentloop.tool.ToolOutcome.FailureKind;
import dev.agentloop.tool.ToolRegistry;
import dev.agentloop.tool.ToolRunner;
import dev.agentloop.trace.NewStep;
import dev.agentloop.trace.StepCost;
import dev.agentloop.trace.StepStore;
import dev.agentloop.trace.Usage;
import dev.agentloop.worker.TaskResult;
import dev.agentloop.worker.TopicHandler;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.stream.Collectors;
import java.util.function.Supplier;
import org.camunda.bpm.engine.externaltask.LockedExternalTask;

/**
 * Serves {@code agentloop.act}: runs the tool calls of the current turn that have no observation
 * yet, side by side, and writes one observation per call in the order the model made them.
 * Whatever goes wrong with a call (unknown tool, arguments that are no JSON object or break the
 * schema, a tool that throws or hangs, a tool whose circuit breaker is open) becomes an error
 * observation the model reads next. A turn without pending calls (the model's reply could not be
 * used) completes with no step.
 *
 * <p>The run leaves its loop instead when the calls, local and remote, would go past its tool-call budget
 * ({@code BUDGET_EXHAUSTED}; the calls are observed as not run), or when the model calls a tool again
 * after it was told that the tool is unavailable ({@code TOOL_UNAVAILABLE}; with all observations).
 * Calls of remote tools that may run are left pending for remote workers ({@link RemoteToolCalls}):
 * then the diagram goes to {@code callRemoteTool} and back here, once per call, else to think.
 */
class ActHandler implements TopicHandler {

  private final AgentDefinitions definitions;
  private final LoopStateReader reader;
  private final StepStore store;
  private final ToolRegistry tools;
  private final ToolRunner runner;
  private final Router router;
  private final RemoteToolCalls remoteCalls;
  private final EscapeChecks checks;
  private final Escapes escapes;

  ActHandler(AgentDefinitions definitions, LoopStateReader reader, StepStore store, ToolRegistry tools,
      ToolRunner runner, Router router, RemoteToolCalls remoteCalls, EscapeChecks checks, Escapes escapes) {
    this.definitions = definitions;
    this.reader = reader;
    this.store = store;
    this.tools = tools;
    this.runner = runner;
    this.router = router;
    this.remoteCalls = remoteCalls;
    this.checks = checks;
    this.escapes = escapes;
  }

  @Override
  public String topic() {
    return ReactAgentProcess.TOPIC_ACT;
  }

  @Override
  public CompletionStage<TaskResult> handle(LockedExternalTask task, Object carried) {
    AgentSettings settings = definitions.settings(task.getProcessDefinitionId());
    LoopState state = reader.read(task, carried, settings.contextWindowSteps());
    Set<String> remote = remoteCalls.pending(state, settings).stream().map(Action::callId).collect(Collectors.toSet());
    Map<String, Object> route = (remote.isEmpty() ? Route.THINK : Route.CALL_REMOTE_TOOL).asVariable();
    List<Action> pending = state.pendingActions().stream().filter(action -> !remote.contains(action.callId())).toList();
    if (pending.isEmpty() && remote.isEmpty()) {
      return CompletableFuture.completedFuture(new TaskResult.Complete(route, () -> state));
    }
    Map<String, Approval> approvals = state.approvals();
    try {
      // the remote calls of the turn count too: checked again each time a remote call is back, the sum stays the same
      checks.beforeToolCalls(state, settings,
          (int) pending.stream().filter(a -> runs(a, approvals, settings)).count() + remote.size());
    } catch (EscapeException e) {
      List<NewStep> notRun = state.pendingActions().stream().map(action -> Steps.observation(Observation.error(action,
          "not run: " + e.getMessage(), Observation.NOT_RUN), Steps.AGENTLOOP)).toList();
      return CompletableFuture.completedFuture(escape(task, e, write(state, notRun, Usage.NONE, settings)));
    }
    if (pending.isEmpty()) {
      return CompletableFuture.completedFuture(new TaskResult.Complete(route, () -> state));
    }
    List<CompletableFuture<Observed>> observations = pending.stream()
        .map(action -> observe(action, approvals.get(action.callId()), settings).toCompletableFuture())
        .toList();
    return CompletableFuture.allOf(observations.toArray(CompletableFuture[]::new)).thenApply(done -> {
      List<Observed> observed = observations.stream().map(CompletableFuture::join).toList();
      List<NewStep> steps = observed.stream().map(Observed::step).toList();
      Usage usage = Usage.toolCalls((int) observed.stream().filter(Observed::toolRan).count(),
          observed.stream().map(o -> StepCost.toolCall(o.latencyMillis())).toList());
      Supplier<LoopState> write = write(state, steps, usage, settings);
      return observed.stream().filter(o -> o.unavailable() != null && checks.toldBefore(state, o.unavailable()))
          .findFirst()
          .<TaskResult>map(o -> escape(task, new EscapeException(EscapeException.Reason.TOOL_UNAVAILABLE,
              "The model called '" + o.unavailable() + "' again although it was told that the tool is unavailable:"
                  + " its circuit breaker is open after repeated failures."), write))
          .orElseGet(() -> new TaskResult.Complete(route, write));
    });
  }

  private Supplier<LoopState> write(LoopState state, List<NewStep> steps, Usage usage, AgentSettings settings) {
    return () -> state.advance(store.append(state.head(), steps, usage), usage, settings.contextWindowSteps());
  }

  /** The BPMN error, or, for a diagram without the escape route, a technical failure (retries, an incident). */
  private TaskResult escape(LockedExternalTask task, EscapeException escape, Supplier<LoopState> write) {
    if (!definitions.catches(task.getProcessDefinitionId(), Escapes.errorCode(escape.reason()))) {
      throw escape;
    }
    return escapes.toBpmnError(escape, write, topic()).orElseThrow();
  }

  /**
   * An observation to write, whether a tool ran for it (refused or rejected calls cost no tool call),
   * the tool's name when its breaker refused the call, and how long the call took ({@code null}: nothing ran).
   */
  record Observed(NewStep step, boolean toolRan, String unavailable, Long latencyMillis) {}

  private boolean runs(Action action, Map<String, Approval> approvals, AgentSettings settings) {
    Approval approval = approvals.get(action.callId());
    return (approval == null || approval.decision() != Approval.Decision.REJECT) && refusal(action, settings) == null;
  }

  /** Runs a call as the model made it, or as a person edited it; a rejected call is observed as such. */
  CompletionStage<Observed> observe(Action action, Approval approval, AgentSettings settings) {
    if (approval != null && approval.decision() == Approval.Decision.REJECT) {
      String reason = approval.reason() == null || approval.reason().isBlank() ? "" : ": " + approval.reason();
      return written(Observation.error(action, "not run, rejected by " + approval.decidedBy() + reason),
          approval.decidedBy());
    }
    if (approval == null && router.needsApproval(action, settings)) {
      // reached act without approveAction, e.g. by a modification: never run it unapproved
      return written(Observation.error(action, "not run: a call of " + action.tool()
          + " needs a person's approval and had none; call it again to ask for it"), Steps.AGENTLOOP);
    }
    Action call = RemoteToolCalls.asRun(action, approval);
    String refusal = refusal(call, settings);
    if (refusal != null) {
      return written(Observation.error(call, refusal), Steps.AGENTLOOP);
    }
    long started = CallCosts.start();
    return runner.run(call.tool(), call.arguments()).thenApply(outcome -> new Observed(
        Steps.observation(observation(call, outcome), outcome.toolRan() ? call.tool() : Steps.AGENTLOOP),
        outcome.toolRan(), outcome.failed() && outcome.failure().kind() == FailureKind.UNAVAILABLE ? call.tool() : null,
        outcome.toolRan() ? CallCosts.millisSince(started) : null));
  }

  private static CompletionStage<Observed> written(Observation observation, String author) {
    return CompletableFuture.completedFuture(new Observed(Steps.observation(observation, author), false, null, null));
  }

  private String refusal(Action action, AgentSettings settings) {
    if (!tools.contains(action.tool()) || !settings.allows(action.tool())) {
      return "there is no tool named '" + action.tool() + "' for this agent; available tools: "
          + String.join(", ", tools.names().stream().filter(settings::allows).toList());
    }
    if (!action.hasValidArguments()) {
      String raw = action.argumentsText();
      return "the arguments of '" + action.tool() + "' must be a JSON object, but were: "
          + (raw.length() > 500 ? raw.substring(0, 500) + "[…]" : raw);
    }
    // a local tool's runner checks the schema; a remote call is checked before it leaves
    List<String> violations = tools.isRemote(action.tool()) ? tools.violations(action.tool(), action.arguments()) : List.of();
    if (!violations.isEmpty()) {
      return "arguments for '" + action.tool() + "' do not match its schema: " + String.join("; ", violations);
    }
    return null;
  }

  private static Observation observation(Action action, ToolOutcome outcome) {
    return outcome.failed() ? Observation.error(action, outcome.failure().message(), outcome.failure().kind())
        : Observation.result(action, outcome.result());
  }
}
