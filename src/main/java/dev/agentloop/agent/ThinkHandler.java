package dev.agentloop.agent;

import dev.agentloop.llm.ChatModel;
import dev.agentloop.llm.ModelRequest;
import dev.agentloop.llm.ModelRequest.Purpose;
import dev.agentloop.llm.ModelRequest.RunInfo;
import dev.agentloop.llm.ToolSpec;
import dev.agentloop.resilience.EscapeException;
import dev.agentloop.resilience.Escapes;
import dev.agentloop.tool.ToolRegistry;
import dev.agentloop.trace.StepStore;
import dev.agentloop.trace.Usage;
import dev.agentloop.worker.TaskResult;
import dev.agentloop.worker.TopicHandler;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.camunda.bpm.engine.externaltask.LockedExternalTask;

/**
 * Serves {@code agentloop.think}: shows the model the recent active path and the agent's tools,
 * and writes what it answered (thought and tool calls, or a final answer) as the next steps.
 *
 * <p>Before the model is called, the run's {@link EscapeChecks escape checks} run: a used-up budget or
 * a loop that went on after a warning leaves the loop (BPMN error), a nearly used-up budget asks the
 * model for its final answer, a loop warning goes into the prompt. Calls that are still pending (a
 * person asked to retry them) go to {@code act} without asking the model.
 *
 * <p>A turn that asks for the final answer offers the model no tools; a call it makes all the same is
 * refused with an observation here and never reaches {@code act}, so no budget is overrun.
 */
class ThinkHandler implements TopicHandler {

  private final AgentDefinitions definitions;
  private final LoopStateReader reader;
  private final StepStore store;
  private final ChatModel model;
  private final ToolRegistry tools;
  private final Router router;
  private final EscapeChecks checks;
  private final Escapes escapes;
  private final RepeatedSideEffects repeats;

  ThinkHandler(AgentDefinitions definitions, LoopStateReader reader, StepStore store, ChatModel model,
      ToolRegistry tools, Router router, EscapeChecks checks, Escapes escapes, RepeatedSideEffects repeats) {
    this.definitions = definitions;
    this.reader = reader;
    this.store = store;
    this.model = model;
    this.tools = tools;
    this.router = router;
    this.checks = checks;
    this.escapes = escapes;
    this.repeats = repeats;
  }

  @Override
  public String topic() {
    return ReactAgentProcess.TOPIC_THINK;
  }

  @Override
  public CompletionStage<TaskResult> handle(LockedExternalTask task, Object carried) {
    AgentSettings settings = definitions.settings(task.getProcessDefinitionId());
    LoopState state = reader.read(task, carried, settings.contextWindowSteps());
    List<Action> pending = state.pendingActions();
    if (!pending.isEmpty()) {
      return CompletableFuture.completedFuture(
          new TaskResult.Complete(routeTo(router.afterToolCalls(pending, settings), settings), () -> state));
    }
    EscapeChecks.BeforeThink before;
    try {
      before = checks.beforeThink(state, settings);
    } catch (EscapeException e) {
      if (!definitions.catches(task.getProcessDefinitionId(), Escapes.errorCode(e.reason()))) {
        throw e;
      }
      return CompletableFuture.completedFuture(escapes.toBpmnError(e, () -> state, topic()).orElseThrow());
    }
    int turn = state.nextTurn();
    boolean finalTurn = before.finalAnswerRequest() != null;
    ModelRequest request = new ModelRequest(Purpose.THINK,
        PromptBuilder.forThinking(state, settings, before.finalAnswerRequest(), before.warnings()),
        finalTurn ? List.of() : toolSpecs(settings),
        new RunInfo(state.run().runId(), state.run().question(), turn, state.attempt()));
    long started = CallCosts.start();
    return model.chat(request).thenApply(reply -> {
      ModelTurn interpreted = ReplyInterpreter.interpret(reply, turn, settings.maxStepChars());
      ModelTurn result = repeats.mark(state.run().runId(),
          finalTurn ? interpreted.refusingCalls(withheld(before.finalAnswerRequest())) : interpreted);
      Map<String, Object> variables = variablesAfter(result, settings);
      Usage usage = CallCosts.modelCall(request, reply, started);
      return new TaskResult.Complete(variables, () -> state.advance(
          store.append(state.head(), result.steps(), usage), usage, settings.contextWindowSteps()));
    });
  }

  /** Why a call of a final-answer turn was not run; the model reads it on its next turn, if it gets one. */
  private static String withheld(String finalAnswerRequest) {
    return "no tools were offered to you this turn. " + finalAnswerRequest
        + " Give your final answer without calling tools.";
  }

  /** Where the loop goes: a final answer leaves it (to review, unless auto-accepted), tool calls go on. */
  private Map<String, Object> variablesAfter(ModelTurn result, AgentSettings settings) {
    if (result.finalAnswer() != null) {
      Map<String, Object> variables = new HashMap<>();
      variables.putAll(Route.DONE.asVariable());
      variables.putAll(ReactAgentProcess.DECISION.transientWith(settings.autoAcceptAnswer() ? "accept" : "review"));
      variables.putAll(ReactAgentProcess.FINAL_ANSWER.with(result.finalAnswer()));
      return variables;
    }
    return routeTo(router.afterToolCalls(result.actions(), settings), settings);
  }

  private static Map<String, Object> routeTo(Route route, AgentSettings settings) {
    Map<String, Object> variables = new HashMap<>(route.asVariable());
    if (route == Route.ASK_HUMAN) {
      variables.putAll(ReactAgentProcess.ASK_HUMAN_TIMEOUT.transientWith(settings.askHumanTimeout().toString()));
    }
    return variables;
  }

  private List<ToolSpec> toolSpecs(AgentSettings settings) {
    return tools.names().stream()
        .filter(settings::allows)
        .map(name -> tools.find(name).orElseThrow())
        .map(tool -> new ToolSpec(tool.name(), tool.description(), tool.parameters()))
        .toList();
  }
}
