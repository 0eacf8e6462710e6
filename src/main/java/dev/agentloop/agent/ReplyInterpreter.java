package dev.agentloop.agent;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentloop.llm.ModelReply;
import dev.agentloop.llm.ToolCall;
import dev.agentloop.trace.NewStep;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Interprets a model reply without trusting it. Text alone is a final answer; tool calls become
 * actions (unusable arguments are kept as written, for the act step to report); an empty,
 * oversized or overloaded reply becomes an error observation the model reads next turn. Never throws
 * on model output.
 */
final class ReplyInterpreter {

  static final int MAX_TOOL_CALLS_PER_TURN = 16;
  private static final int PREVIEW_CHARS = 2_000;
  private static final ObjectMapper JSON = new ObjectMapper();

  private ReplyInterpreter() {}

  static ModelTurn interpret(ModelReply reply, int turn, int maxStepChars) {
    String text = reply.text();
    List<ToolCall> calls = reply.toolCalls();
    long size = text.length() + calls.stream().mapToLong(c -> c.name().length() + c.arguments().length()).sum();
    if (size > maxStepChars) {
      return refused(preview(text), "your reply had " + size + " characters, more than the " + maxStepChars
          + " allowed; answer shorter");
    }
    if (calls.size() > MAX_TOOL_CALLS_PER_TURN) {
      return refused(text, "you called " + calls.size() + " tools at once; call at most "
          + MAX_TOOL_CALLS_PER_TURN + " per turn");
    }
    if (calls.isEmpty()) {
      return text.isBlank()
          ? refused("", "your reply was empty; call a tool or give your final answer")
          : new ModelTurn(List.of(Steps.finalAnswer(text)), List.of(), text);
    }
    List<NewStep> steps = new ArrayList<>();
    List<Action> actions = new ArrayList<>();
    steps.add(Steps.thought(text));
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

  private static Action toAction(String callId, ToolCall call) {
    String raw = call.arguments().isBlank() ? "{}" : call.arguments();
    try {
      JsonNode arguments = JSON.readTree(raw);
      if (arguments != null && arguments.isObject()) {
        return new Action(callId, call.name(), arguments, null);
      }
    } catch (JsonProcessingException e) {
      // kept raw below; the act step tells the model
    }
    return new Action(callId, call.name(), null, raw);
  }

  private static ModelTurn refused(String thought, String problem) {
    return new ModelTurn(
        List.of(Steps.thought(thought), Steps.observation(Observation.replyError(problem), Steps.AGENTLOOP)),
        List.of(), null);
  }

  private static String preview(String text) {
    return text.length() <= PREVIEW_CHARS ? text : text.substring(0, PREVIEW_CHARS) + "[…]";
  }
}
