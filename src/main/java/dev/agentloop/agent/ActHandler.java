package dev.agentloop.agent;

import dev.agentloop.tool.ToolOutcome;
import dev.agentloop.tool.ToolRegistry;
import dev.agentloop.tool.ToolRunner;
import dev.agentloop.trace.StepStore;
import dev.agentloop.trace.Usage;
import dev.agentloop.worker.TaskResult;
import dev.agentloop.worker.TopicHandler;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.camunda.bpm.engine.externaltask.LockedExternalTask;

/**
 * Serves {@code agentloop.act}: runs the first pending tool call of the current turn and writes its
 * observation. Whatever goes wrong with the call (unknown tool, arguments that are no JSON object or
 * break the schema, a tool that throws or hangs) becomes an error observation the model reads.
 */
class ActHandler implements TopicHandler {

  private final AgentDefinitions definitions;
  private final LoopStateReader reader;
  private final StepStore store;
  private final ToolRegistry tools;
  private final ToolRunner runner;
  private final Router router;

  ActHandler(AgentDefinitions definitions, LoopStateReader reader, StepStore store, ToolRegistry tools,
      ToolRunner runner, Router router) {
    this.definitions = definitions;
    this.reader = reader;
    this.store = store;
    this.tools = tools;
    this.runner = runner;
    this.router = router;
  }

  @Override
  public String topic() {
    return ReactAgentProcess.TOPIC_ACT;
  }

  @Override
  public CompletionStage<TaskResult> handle(LockedExternalTask task) {
    AgentSettings settings = definitions.settings(task.getProcessDefinitionId());
    LoopState state = reader.read(task.getProcessInstanceId(), settings.contextWindowSteps());
    List<Action> pending = state.pendingActions();
    if (pending.isEmpty()) {
      return CompletableFuture.completedFuture(
          new TaskResult.Complete(ReactAgentProcess.ROUTE.with(Route.THINK.value()), () -> { }));
    }
    Action action = pending.get(0);
    String route = router.next(pending.subList(1, pending.size())).value();
    String refusal = refusal(action, settings);
    if (refusal != null) {
      return CompletableFuture.completedFuture(record(state, route, Observation.error(action, refusal), Steps.AGENTLOOP, Usage.NONE));
    }
    return runner.run(action.tool(), action.arguments()).thenApply(outcome ->
        record(state, route, observation(action, outcome), action.tool(), Usage.toolCall()));
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

  private TaskResult record(LoopState state, String route, Observation observation, String author, Usage usage) {
    return new TaskResult.Complete(ReactAgentProcess.ROUTE.with(route),
        () -> store.append(state.head(), List.of(Steps.observation(observation, author)), usage));
  }
}
