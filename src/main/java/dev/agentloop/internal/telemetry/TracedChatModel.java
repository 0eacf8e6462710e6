package dev.agentloop.internal.telemetry;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentloop.internal.async.AsyncFailures;
import dev.agentloop.spi.ChatMessage;
import dev.agentloop.spi.ChatModel;
import dev.agentloop.spi.ModelReply;
import dev.agentloop.spi.ModelRequest;
import dev.agentloop.spi.TokenCounts;
import dev.agentloop.spi.ToolCall;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletionStage;

/**
 * A chat model whose calls are {@code chat {model}} spans of their run's trace (a plan's below a {@code plan} span),
 * with provider, model, token usage, finish reason and error type; messages only where
 * {@link TelemetrySettings#captureContent()} allows. The reply is the model's, untouched. Thread-safe.
 */
final class TracedChatModel implements ChatModel {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final ChatModel model;
  private final RunTraces traces;
  private final ModelIdentity identity;

  TracedChatModel(ChatModel model, RunTraces traces, ModelIdentity identity) {
    this.model = model;
    this.traces = traces;
    this.identity = identity;
  }

  @Override
  public String endpoint() {
    return model.endpoint();
  }

  @Override
  public CompletionStage<ModelReply> chat(ModelRequest request) {
    String runId = request.run().runId();
    RunTrace run = traces.find(runId).orElse(null);
    if (run == null) {
      return model.chat(request);
    }
    boolean planning = request.purpose() == ModelRequest.Purpose.PLAN;
    TraceSpan plan = planning ? traces.start(runId, run, null, GenAi.PLAN + " " + run.agent(), false, null)
        .tag(GenAi.OPERATION_NAME, GenAi.PLAN) : null;
    TraceSpan span = identity.tag(traces.start(runId, run, plan, GenAi.CHAT + " " + identity.model(), true, null)
        .tag(GenAi.OPERATION_NAME, GenAi.CHAT))
        .tag(Extension.STEP, request.purpose().name().toLowerCase(Locale.ROOT))
        .tag(Extension.MODEL_TURN, request.run().turn());
    if (traces.settings().captureContent()) {
      span.tag(GenAi.INPUT_MESSAGES, messages(request.messages()));
    }
    CompletionStage<ModelReply> reply;
    try {
      reply = model.chat(request);
    } catch (RuntimeException e) {
      end(span, plan, null, e);
      throw e;
    }
    // the caller gets the model's own stage: the span only watches it
    reply.whenComplete((answer, failure) -> end(span, plan, answer, failure));
    return reply;
  }

  private void end(TraceSpan span, TraceSpan plan, ModelReply reply, Throwable failure) {
    if (failure != null) {
      Throwable cause = AsyncFailures.unwrap(failure);
      span.tag(GenAi.ERROR_TYPE, ErrorTypes.of(cause)).error(cause);
    } else {
      usage(span, reply.usage());
      if (reply.response().id() != null) {
        span.tag(GenAi.RESPONSE_ID, reply.response().id());
      }
      if (reply.response().model() != null) {
        span.tag(GenAi.RESPONSE_MODEL, reply.response().model());
      }
      if (!reply.stop().value().isBlank()) {
        span.tag(GenAi.FINISH_REASONS, List.of(reply.stop().value()));
      }
      if (traces.settings().captureContent()) {
        span.tag(GenAi.OUTPUT_MESSAGES, messages(List.of(new ChatMessage.AssistantMessage(reply.text(),
            reply.toolCalls()))));
      }
    }
    span.end();
    if (plan != null) {
      if (failure != null) {
        plan.tag(GenAi.ERROR_TYPE, ErrorTypes.of(AsyncFailures.unwrap(failure)));
      }
      plan.end();
    }
  }

  private static void usage(TraceSpan span, TokenCounts usage) {
    if (usage.prompt() != null) {
      span.tag(GenAi.INPUT_TOKENS, usage.prompt().longValue());
    }
    if (usage.completion() != null) {
      span.tag(GenAi.OUTPUT_TOKENS, usage.completion().longValue());
    }
    if (usage.cacheRead() != null) {
      span.tag(GenAi.CACHE_READ_TOKENS, usage.cacheRead().longValue());
    }
    if (usage.cacheWrite() != null) {
      span.tag(GenAi.CACHE_CREATION_TOKENS, usage.cacheWrite().longValue());
    }
  }

  /** The messages in the conventions' shape: role and parts (text, tool calls, tool results). */
  private static String messages(List<ChatMessage> messages) {
    ArrayNode all = JSON.createArrayNode();
    for (ChatMessage message : messages) {
      ObjectNode node = all.addObject();
      ArrayNode parts = JSON.createArrayNode();
      if (message instanceof ChatMessage.SystemMessage system) {
        node.put("role", "system");
        text(parts, system.text());
      } else if (message instanceof ChatMessage.UserMessage user) {
        node.put("role", "user");
        text(parts, user.text());
      } else if (message instanceof ChatMessage.AssistantMessage assistant) {
        node.put("role", "assistant");
        text(parts, assistant.text());
        for (ToolCall call : assistant.toolCalls()) {
          parts.addObject().put("type", "tool_call").put("id", call.id()).put("name", call.name())
              .put("arguments", call.arguments());
        }
      } else if (message instanceof ChatMessage.ToolResultMessage result) {
        node.put("role", "tool");
        parts.addObject().put("type", "tool_call_response").put("id", result.callId()).put("response", result.text());
      }
      node.set("parts", parts);
    }
    return all.toString();
  }

  private static void text(ArrayNode parts, String text) {
    if (text != null && !text.isEmpty()) {
      parts.addObject().put("type", "text").put("content", text);
    }
  }
}
