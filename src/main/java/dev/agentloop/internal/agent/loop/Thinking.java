package dev.agentloop.internal.agent.loop;

import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.definition.AgentAsTool;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.agent.definition.AnswerVariables;
import dev.agentloop.internal.agent.loop.TaskOutcomes.Written;
import dev.agentloop.internal.resilience.EscapeException.Reason;
import dev.agentloop.internal.resilience.EscapeException;
import dev.agentloop.spi.ChatModel;
import dev.agentloop.spi.ModelReply;
import dev.agentloop.spi.StopReason;
import dev.agentloop.spi.ModelRequest.Purpose;
import dev.agentloop.spi.ModelRequest.RunInfo;
import dev.agentloop.spi.ModelRequest;
import dev.agentloop.spi.ToolSpec;
import dev.agentloop.internal.tool.ToolRegistry;
import dev.agentloop.internal.trace.NewStep;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.Usage;
import dev.agentloop.internal.trace.step.Action;
import dev.agentloop.internal.trace.step.FinalAnswer;
import dev.agentloop.internal.trace.step.Thought;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * One model turn: shows the model the recent active path and the agent's tools, and interprets what
 * it answered.
 *
 * <p>Before the model is called, the run's {@link EscapeChecks escape checks} run: a used-up budget (the run's, or
 * that of a run whose call led to it) or a loop that went on after a warning leaves the loop (BPMN error), a nearly
 * used-up budget asks the model for its final answer, a loop warning goes into the prompt. Calls that are still open (a
 * person asked to retry them) go to {@code act} without asking the model, and so do the turns AgentLoop takes
 * itself when a remote agent asked for input ({@link RemoteInputs}).
 *
 * <p>A turn that asks for the final answer offers the model no tools; a call it makes all the same is
 * refused with an observation here and never reaches {@code act}, so no budget is overrun.
 *
 * <p>A reply cut at its output limit leaves the loop at once with {@code BUDGET_EXHAUSTED} (the reply's
 * own token budget was used up), its reason naming the limit and the setting that raises it: asking
 * again would hit the same limit, and repeated cuts must not look like an agent going round in circles.
 * So does a reply the provider withheld (filtered, refused), its reason in words, and a final answer that broke
 * the agent's answer schema once more than its repairs allow ({@link AnswerCheck}).
 * Thread-safe.
 */
public class Thinking {

  /** How often a turn the provider paused is sent back in a row before a person decides. */
  static final int MAX_PAUSES = 3;

  private final ChatModel model;
  private final ToolRegistry tools;
  private final Router router;
  private final EscapeChecks checks;
  private final RepeatedSideEffects repeats;

  public Thinking(ChatModel model, ToolRegistry tools, Router router, EscapeChecks checks, RepeatedSideEffects repeats) {
    this.model = model;
    this.tools = tools;
    this.router = router;
    this.checks = checks;
    this.repeats = repeats;
  }

  /**
   * What the turn came to: its steps and their cost, the variables the gateways read, and the escape
   * when the run leaves its loop instead.
   */
  record Outcome(Written written, Map<String, Object> variables, EscapeException escape) {}

  CompletionStage<Outcome> think(LoopState state, AgentSettings settings) {
    List<Action> open = state.turn().open();
    if (!open.isEmpty()) {
      return done(new Outcome(Written.NOTHING, routeTo(router.afterToolCalls(open, settings), settings), null));
    }
    EscapeChecks.BeforeThink before;
    try {
      before = checks.beforeThink(state, settings);
    } catch (EscapeException e) {
      return done(new Outcome(Written.NOTHING, Map.of(), e));
    }
    boolean finalTurn = before.finalAnswerRequest() != null;
    java.util.Optional<List<NewStep>> own = finalTurn ? java.util.Optional.empty() : RemoteInputs.next(state, settings);
    if (own.isPresent()) {
      List<Action> calls = own.get().stream().map(NewStep::content).filter(Action.class::isInstance)
          .map(Action.class::cast).toList();
      return done(new Outcome(new Written(own.get(), Usage.NONE), routeTo(router.afterToolCalls(calls, settings),
          settings), null));
    }
    int turn = state.nextTurn();
    PromptBuilder.Prompt prompt = PromptBuilder.thinking(state, settings, before.finalAnswerRequest(),
        before.warnings(), model::estimateTokens);
    ModelRequest request = new ModelRequest(Purpose.THINK, prompt.messages(),
        finalTurn ? List.of() : toolSpecs(settings),
        new RunInfo(state.run().runId(), state.question(), turn, state.attempt()), prompt.stable(),
        settings.answer().hasSchema() ? settings.answer().schema().format() : null);
    long started = CallCosts.start();
    return model.chat(request).whenComplete((reply, failure) -> {
      if (failure != null) {
        checks.modelCallFailed(state);
      }
    }).thenApply(reply -> {
      ModelTurn interpreted = ReplyInterpreter.interpret(reply, turn, settings.prompt().maxStepChars());
      if (finalTurn) {
        interpreted = interpreted.refusingCalls(withheld(before.finalAnswerRequest()));
      }
      ModelTurn result = repeats.mark(state.run().runId(), checked(interpreted, reply, state, settings));
      boolean autoAccepted = result.finalAnswer() != null && settings.review().autoAcceptAnswer();
      Written written = new Written(result.steps(), CallCosts.modelCall(request, reply, started),
          autoAccepted ? AgentSettings.AUTO_ACCEPT_ANSWER : null);
      if (result.leave() != null) {
        // a cut reply would hit the same limit again, a withheld one is a person's to judge, and an answer that keeps
        // breaking the schema has had its repairs
        return new Outcome(written, Map.of(), new EscapeException(Reason.BUDGET_EXHAUSTED, result.leave()));
      }
      return new Outcome(written, variablesAfter(result, settings), null);
    });
  }

  /**
   * The turn with its answer checked against the answer schema, and a paused turn bounded: a provider that pauses
   * it again and again ({@code pause_turn}) hands the run to a person rather than being asked without end.
   */
  private static ModelTurn checked(ModelTurn turn, ModelReply reply, LoopState state, AgentSettings settings) {
    if (turn.finalAnswer() != null && settings.answer().hasSchema()) {
      return AnswerCheck.check(turn, settings.answer(), state.recent(), state.run().runId());
    }
    if (reply.stop().paused() && turn.actions().isEmpty() && pausedInARow(state.recent()) >= MAX_PAUSES) {
      return new ModelTurn(turn.steps(), List.of(), null, "The provider paused the model's turn " + (MAX_PAUSES + 1)
          + " times in a row (stop reason '" + reply.stop().value() + "') without finishing it. Guide the agent with a"
          + " note, retry, or stop the run.");
    }
    return turn;
  }

  /** How many replies the provider paused at the end of the path, one after another. */
  private static int pausedInARow(List<Step> recent) {
    int paused = 0;
    for (int i = recent.size() - 1; i >= 0 && recent.get(i).content() instanceof Thought thought
        && StopReason.PAUSE_TURN.equals(thought.stopReason()); i--) {
      paused++;
    }
    return paused;
  }

  private static CompletionStage<Outcome> done(Outcome thought) {
    return CompletableFuture.completedFuture(thought);
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
      variables.putAll(ReviewGate.of(settings.review().autoAcceptAnswer()).asVariable());
      variables.putAll(ReactAgentProcess.FINAL_ANSWER.with(result.finalAnswer()));
      FinalAnswer answer = (FinalAnswer) result.steps().get(result.steps().size() - 1).content();
      if (answer.hasData()) {
        variables.putAll(AnswerVariables.of(settings.answer().schema(), answer.data()));
      }
      return variables;
    }
    return routeTo(router.afterToolCalls(result.actions(), settings), settings);
  }

  private static Map<String, Object> routeTo(Route route, AgentSettings settings) {
    Map<String, Object> variables = new HashMap<>(route.asVariable());
    if (route == Route.ASK_HUMAN) {
      variables.putAll(
          ReactAgentProcess.ASK_HUMAN_TIMEOUT.transientWith(settings.review().askHumanTimeout().toString()));
    }
    return variables;
  }

  /**
   * The tools the agent allows, in the registry's order; then those it names that no source lists
   * yet (an MCP server never reached), which the registry finds as stand-ins whose calls fail with why:
   * the model is not silently left without them.
   */
  private List<ToolSpec> toolSpecs(AgentSettings settings) {
    return java.util.stream.Stream.concat(tools.names().stream(), settings.allowedTools().stream())
        .distinct()
        .filter(settings::allows)
        .map(tools::find)
        .flatMap(java.util.Optional::stream)
        // other agents only where allowedTools name them: "*" offers every tool but no agent
        .filter(tool -> !(tool instanceof AgentAsTool) || settings.allowedTools().contains(tool.name()))
        .map(tool -> new ToolSpec(tool.name(), tool.description(), tool.parameters()))
        .toList();
  }
}
