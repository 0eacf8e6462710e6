package dev.agentloop.internal.agent.loop;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.internal.agent.Steps;
import dev.agentloop.spi.ModelReply;
import dev.agentloop.spi.ToolCall;
import dev.agentloop.internal.trace.NewStep;
import dev.agentloop.internal.trace.step.Action;
import dev.agentloop.internal.trace.step.Observation;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Interprets a model reply without trusting it. Text alone is a final answer; tool calls become
 * actions (unusable arguments are kept as written, for the act step to report); an empty,
 * oversized or overloaded reply becomes an error observation the model reads next turn. Never throws
 * on model output.
 *
 * <p>A reasoning model's reasoning ({@link ModelReply#reasoning()}) is kept in the turn's first step,
 * in a field of its own, and never becomes the answer or the thought the model reads again. A reply
 * that is all reasoning — no text, no call — is refused like an empty one.
 *
 * <p>A reply cut at its output limit is never taken as complete: not its text as an answer, not its
 * calls, whose arguments may end mid-value. Its text is kept as a thought with the stop reason, the
 * model is told (should the run go on) that it was cut, and the turn says why the run leaves its loop
 * ({@link ModelTurn#leave()}); so does a reply the provider withheld (a content filter, a model's refusal). A reply
 * the provider paused ({@code pause_turn}) is a thought the model goes on from, never an answer. Arguments are read
 * by {@link LenientJson}.
 */
public final class ReplyInterpreter {

  private static final int PREVIEW_CHARS = 2_000;

  private ReplyInterpreter() {}

  public static ModelTurn interpret(ModelReply reply, int turn, int maxStepChars) {
    String text = reply.text();
    String reasoning = kept(reply.reasoning(), maxStepChars);
    List<ToolCall> calls = reply.toolCalls();
    String stop = reply.stop().value();
    if (reply.stop().cut() || reply.stop().withheld()) {
      return unused(reply, reasoning, maxStepChars);
    }
    long size = text.length() + calls.stream().mapToLong(c -> c.name().length() + c.arguments().length()).sum();
    if (size > maxStepChars) {
      return refused(preview(text), reasoning, "your reply had " + size + " characters, more than the " + maxStepChars
          + " allowed; answer shorter");
    }
    if (calls.size() > Turn.MAX_CALLS) {
      return refused(text, reasoning, "you called " + calls.size() + " tools at once (" + summary(calls)
          + "); call at most " + Turn.MAX_CALLS + " per turn");
    }
    if (calls.isEmpty()) {
      if (reply.stop().paused()) {
        // the provider paused a long turn: the model goes on from this text when the turn is sent back
        return new ModelTurn(List.of(Steps.thought(text, reasoning, stop)), List.of(), null);
      }
      if (!text.isBlank()) {
        return new ModelTurn(List.of(Steps.finalAnswer(text, reasoning, stop)), List.of(), text);
      }
      return refused("", reasoning, reasoning.isBlank() ? "your reply was empty; call a tool or give your final answer"
          : "your reply held only your reasoning, no answer and no tool call; call a tool or give your final answer");
    }
    List<NewStep> steps = new ArrayList<>();
    List<Action> actions = new ArrayList<>();
    steps.add(Steps.thought(text, reasoning, stop));
    Set<String> ids = new HashSet<>();
    for (int i = 0; i < calls.size(); i++) {
      ToolCall call = calls.get(i);
      String callId = call.id();
      for (int n = i + 1; callId.isBlank() || !ids.add(callId); n += calls.size()) {
        callId = "call_" + turn + "_" + n;
      }
      Action action = toAction(callId, call);
      actions.add(action);
      steps.add(Steps.action(action));
    }
    return new ModelTurn(steps, actions, null);
  }

  /**
   * A reply cut at its output limit, or withheld by the provider: its text as a thought (shortened like a refused
   * one), none of its calls as an action, an observation that tells the model its reply was not used, and why the
   * run leaves its loop.
   */
  private static ModelTurn unused(ModelReply reply, String reasoning, int maxStepChars) {
    String text = reply.text().length() > maxStepChars ? preview(reply.text()) : reply.text();
    String calls = reply.toolCalls().isEmpty() ? "" : "; its tool calls (" + summary(reply.toolCalls()) + ") were not run";
    String why = reply.stop().cut() ? "your reply was cut at the output limit (" + reply.stop().limit() + ") and was"
        + " not used" + calls + "; answer shorter"
        : "your reply was withheld by the provider (stop reason '" + reply.stop().value() + "') and was not used" + calls;
    return new ModelTurn(List.of(Steps.thought(text, reasoning, reply.stop().value()),
        Steps.observation(Observation.replyError(why), Steps.AGENTLOOP)), List.of(), null,
        reply.stop().cut() ? reply.stop().cutMessage() : reply.stop().withheldMessage());
  }

  /** Reasoning as stored: it is never sent back, so a long one is cut rather than refused. */
  static String kept(String reasoning, int maxStepChars) {
    return reasoning.length() <= maxStepChars ? reasoning
        : reasoning.substring(0, maxStepChars) + "\n[cut: " + (reasoning.length() - maxStepChars) + " more characters]";
  }

  private static Action toAction(String callId, ToolCall call) {
    String raw = call.arguments().isBlank() ? "{}" : call.arguments();
    JsonNode arguments = LenientJson.wholeObject(raw);
    // kept raw when unusable; the act step tells the model
    return arguments != null ? new Action(callId, call.name(), arguments, null) : new Action(callId, call.name(), null, raw);
  }

  private static ModelTurn refused(String thought, String reasoning, String problem) {
    return new ModelTurn(List.of(Steps.thought(thought, reasoning),
        Steps.observation(Observation.replyError(problem), Steps.AGENTLOOP)), List.of(), null);
  }

  /** Which tools a refused reply called, so that people and the model see what was asked: {@code noop ×30}. */
  private static String summary(List<ToolCall> calls) {
    Map<String, Long> counts = calls.stream().collect(Collectors.groupingBy(
        call -> call.name().length() > 60 ? call.name().substring(0, 60) + "…" : call.name(), LinkedHashMap::new,
        Collectors.counting()));
    String listed = counts.entrySet().stream().limit(5).map(e -> e.getKey() + " ×" + e.getValue())
        .collect(Collectors.joining(", "));
    return counts.size() > 5 ? listed + ", …" : listed;
  }

  private static String preview(String text) {
    return text.length() <= PREVIEW_CHARS ? text : text.substring(0, PREVIEW_CHARS) + "[…]";
  }
}
