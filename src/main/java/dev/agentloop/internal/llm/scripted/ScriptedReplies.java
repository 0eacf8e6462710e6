package dev.agentloop.internal.llm.scripted;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentloop.internal.llm.scripted.Script.Reply;
import dev.agentloop.internal.llm.scripted.Script.Scenario;
import dev.agentloop.spi.ChatMessage;
import dev.agentloop.spi.ChatMessage.AssistantMessage;
import dev.agentloop.spi.ChatMessage.UserMessage;
import dev.agentloop.spi.ModelCallException;
import dev.agentloop.spi.ModelReply;
import dev.agentloop.spi.ModelRequest;
import dev.agentloop.spi.StopReason;
import dev.agentloop.spi.TokenCounts;
import dev.agentloop.spi.ToolCall;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * What a {@link Script} answers to a request: which reply of its scenario (by the turn within the current
 * question and the last tool result), and the {@link ModelReply} it becomes, filled in from what the request
 * carries. Apart from {@link ScriptedChatModel}, which times and streams the replies, because this is the script's
 * meaning and that the model's delivery. Thread-safe.
 */
final class ScriptedReplies {

  /** The model its replies name, by which a price table (a demo's) can price them. */
  static final String MODEL = "scripted";

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Script script;

  ScriptedReplies(Script script) {
    this.script = script;
  }

  /** The scenario's reply to the request: the first rule that applies, else the turn's reply, else the fallback. */
  Reply replyFor(Scenario scenario, ModelRequest request) {
    int turn = turnOfQuestion(request);
    String lastResult = request.lastToolResult();
    return scenario.rules().stream()
        .filter(rule -> rule.applies(turn, lastResult))
        .map(Script.Rule::reply)
        .findFirst()
        .orElseGet(() -> turn >= 1 && turn <= scenario.turns().size() ? scenario.turns().get(turn - 1) : script.fallback());
  }

  /** The scenario's plan (or a one-step plan) as a planning call's reply. */
  ModelReply planReply(Scenario scenario, ModelRequest request) {
    List<String> plan = scenario.plan() == null ? List.of("Answer the question") : scenario.plan();
    try {
      return new ModelReply(JSON.writeValueAsString(plan), "", List.of(), TokenCounts.UNREPORTED, StopReason.UNREPORTED,
          null, new ModelReply.Response("scripted-" + request.run().runId() + "-plan", MODEL));
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The reply the model gives: the scripted failure thrown, or its text and tool calls filled in from the request. */
  ModelReply toModelReply(Reply reply, ModelRequest request) {
    if (reply.fail() != null) {
      throw failure(reply.fail());
    }
    if (reply.empty()) {
      return new ModelReply("", List.of(), 0);
    }
    // the demo model reacts to what people changed: its replies are filled from the tool results it read
    ToolResultTemplate template = ToolResultTemplate.of(request);
    List<ToolCall> calls = new ArrayList<>();
    for (int i = 0; i < reply.toolCalls().size(); i++) {
      Script.ScriptedCall call = reply.toolCalls().get(i);
      String arguments = call.rawArguments() != null ? call.rawArguments()
          : call.arguments() == null ? "{}" : call.arguments().toString();
      calls.add(new ToolCall("call_" + request.run().turn() + "_" + (i + 1), call.tool(), template.fillJson(arguments)));
    }
    TokenCounts tokens = new TokenCounts(reply.promptTokens(), reply.completionTokens(), reply.tokens(),
        reply.cacheReadTokens(), reply.cacheWriteTokens());
    String text = request.answer() != null && reply.answer() != null ? template.fillJson(reply.answer().toString())
        : template.fill(filledIn(text(reply, request.run().attempt()), request));
    return new ModelReply(text, reply.reasoning(), calls, tokens, stopReason(reply.stopReason()), MODEL,
        new ModelReply.Response("scripted-" + request.run().runId() + "-" + request.run().turn(), MODEL));
  }

  private static StopReason stopReason(String scripted) {
    return "length".equals(scripted) || "max_tokens".equals(scripted)
        ? StopReason.cut(scripted, "the script's stopReason '" + scripted + "'", "this is the scripted model: change"
            + " the script's reply")
        : StopReason.of(scripted);
  }

  private static String text(Reply reply, int attempt) {
    if (!reply.finalAnswers().isEmpty()) {
      return reply.finalAnswers().get(Math.min(attempt, reply.finalAnswers().size() - 1));
    }
    return reply.finalAnswer() != null ? reply.finalAnswer() : reply.thought();
  }

  /**
   * The model turn within the current question: the run's turn, unless the question is a follow-up of
   * a conversation (it is not the first user message), where the turns count from the question on.
   */
  private static int turnOfQuestion(ModelRequest request) {
    List<ChatMessage> messages = request.messages();
    int asked = -1;
    for (int i = 0; i < messages.size(); i++) {
      if (messages.get(i) instanceof UserMessage user && user.text().equals(request.run().question())) {
        asked = i;
      }
    }
    int firstUser = 0;
    while (firstUser < messages.size() && !(messages.get(firstUser) instanceof UserMessage)) {
      firstUser++;
    }
    if (asked <= firstUser) {
      return request.run().turn();
    }
    return 1 + (int) messages.subList(asked + 1, messages.size()).stream()
        .filter(message -> message instanceof AssistantMessage).count();
  }

  /**
   * A scripted text with {@code {question}} (the current question) and {@code {earlierAnswer}} (the
   * answer of the turn before, as the model received it) filled in: a conversation shows that the
   * model read its earlier turn.
   */
  private static String filledIn(String text, ModelRequest request) {
    if (text == null || !text.contains("{")) {
      return text;
    }
    String earlier = "";
    for (ChatMessage message : request.messages()) {
      if (message instanceof UserMessage user && user.text().equals(request.run().question())) {
        break;
      }
      if (message instanceof AssistantMessage assistant && assistant.toolCalls().isEmpty()) {
        earlier = assistant.text();
      }
    }
    return text.replace("{question}", request.run().question()).replace("{earlierAnswer}", earlier);
  }

  private static ModelCallException failure(String kind) {
    return switch (kind) {
      case "http-429" -> new ModelCallException("scripted: HTTP 429 Too Many Requests", true, 429, null);
      case "http-500" -> new ModelCallException("scripted: HTTP 500 Internal Server Error", true, 500, null);
      case "http-400" -> new ModelCallException("scripted: HTTP 400 Bad Request", false, 400, null);
      case "timeout" -> new ModelCallException("scripted: the model did not answer in time", true, 0, null);
      default -> throw new IllegalStateException("unknown scripted failure '" + kind + "'");
    };
  }
}
