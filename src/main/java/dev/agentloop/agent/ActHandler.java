package dev.agentloop.agent;

import dev.agentloop.tool.ToolOutcome;
import dev.agentloop.tool.ToolRegistry;
import dev.agentloop.tool.ToolRunner;
import dev.agentloop.trace.NewStep;
import dev.agentloop.trace.StepStore;
import dev.agentloop.trace.Usage;
import dev.agentloop.worker.TaskResult;
import dev.agentloop.worker.TopicHandler;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.camunda.bpm.engine.externaltask.LockedExternalTask;

/**
 * Serves {@code agentloop.act}: runs the tool calls of the current turn that have no observation
 * yet, side by side, and writes one observation per call in the order the model made them.
 * Whatever goes wrong with a call (unknown tool, arguments that are no JSON object or break the
 * schema, a tool that throws or hangs) becomes an error observation the model reads next.
 * A turn without pending calls (the model's reply could not be used) completes with no step.
 */
class ActHandler implements TopicHandler {

  private final AgentDefinitions definitions;
  private final LoopStateReader reader;
  private final StepStore store;
  private final ToolRegistry tools;
  private final ToolRunner runner;

  ActHandler(AgentDefinitions definitions, LoopStateReader reader, StepStore store, ToolRegistry tools,
      ToolRunner runner) {
    this.definitions = definitions;
    this.reader = reader;
    this.store = store;
    this.tools = tools;
    this.runner = runner;
  }

  @Override
  public String topic() {
    return ReactAgentProcess.TOPIC_ACT;
  }

  @Override
  public CompletionStage<TaskResult> handle(LockedExternalTask task, Object carried) {
    AgentSettings settings = definitions.settings(task.getProcessDefinitionId());
    LoopState state = reader.read(task, carried, settings.contextWindowSteps());
    List<Action> pending = state.pendingActions();
    if (pending.isEmpty()) {
      return CompletableFuture.completedFuture(new TaskResult.Complete(Map.of(), () -> state));
    }
    List<CompletableFuture<NewStep>> observations = pending.stream()
        .map(action -> observe(action, settings).toCompletableFuture())
        .toList();
    return CompletableFuture.allOf(observations.toArray(CompletableFuture[]::new)).thenApply(done -> {
      List<NewStep> steps = new ArrayList<>();
      observations.forEach(observation -> steps.add(observation.join()));
      // observations AgentLoop wrote itself (refused calls) cost no tool call
      Usage usage = new Usage(0, (int) steps.stream().filter(s -> !s.author().equals(Steps.AGENTLOOP)).count(), 0);
      return new TaskResult.Complete(Map.of(), () -> state.advance(
          store.append(state.head(), steps, usage), usage, settings.contextWindowSteps()));
    });
  }

  private CompletionStage<NewStep> observe(Action action, AgentSettings settings) {
    String refusal = refusal(action, settings);
    if (refusal != null) {
      return CompletableFuture.completedFuture(Steps.observation(Observation.error(action, refusal), Steps.AGENTLOOP));
    }
    return runner.run(action.tool(), action.arguments()).thenApply(outcome ->
        Steps.observation(observation(action, outcome), outcome.toolRan() ? action.tool() : Steps.AGENTLOOP));
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
    return null;
  }

  private static Observation observation(Action action, ToolOutcome outcome) {
    return outcome.failed() ? Observation.error(action, outcome.failure().message())
        : Observation.result(action, outcome.result());
  }
}
