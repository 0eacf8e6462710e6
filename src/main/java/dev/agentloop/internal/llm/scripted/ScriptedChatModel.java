package dev.agentloop.internal.llm.scripted;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentloop.internal.llm.scripted.Script.Reply;
import dev.agentloop.internal.llm.scripted.Script.Scenario;
import dev.agentloop.internal.llm.ModelText;
import dev.agentloop.spi.ChatModel;
import dev.agentloop.spi.ModelReply;
import dev.agentloop.spi.ModelRequest;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * A {@link ChatModel} that answers from a {@link Script}. Simulated latency is a timer, not a
 * sleeping thread, so thousands of runs can wait on it at once. Thread-safe.
 */
public class ScriptedChatModel implements ChatModel {

  private static final int PIECES = 4;

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Script script;
  private final ScriptedReplies replies;
  private final Executor replyThreads;
  private final AtomicLong calls = new AtomicLong();
  private final ModelText text;

  /**
   * @param replies where delayed replies complete (and the caller's continuations run): AgentLoop's
   *     model threads, not the JDK's common pool, whose threads lack the application's class loader
   */
  public ScriptedChatModel(Script script, Executor replies) {
    this(script, replies, ModelText.NONE);
  }

  /**
   * @param text where each reply's text goes, in a few pieces just before the reply, as a streaming provider's would:
   *     so that a demo's followers see text arrive
   */
  public ScriptedChatModel(Script script, Executor replies, ModelText text) {
    this.script = script;
    this.replies = new ScriptedReplies(script);
    this.replyThreads = replies;
    this.text = java.util.Objects.requireNonNull(text, "text");
  }

  /** Reads a script; an unknown key is an error, so a typo in a script never goes unnoticed. */
  public static Script read(InputStream json) throws IOException {
    return JSON.copy().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).readValue(json, Script.class);
  }

  @Override
  public String endpoint() {
    return "scripted";
  }

  /** How many calls this model has answered or failed; tests count model calls with it. */
  public long calls() {
    return calls.get();
  }

  @Override
  public CompletionStage<ModelReply> chat(ModelRequest request) {
    calls.incrementAndGet();
    Scenario scenario = script.scenarioFor(request.run().question());
    if (request.purpose() == ModelRequest.Purpose.PLAN) {
      return after(script.latencyMillis(), () -> streamed(replies.planReply(scenario, request), request));
    }
    Reply reply = replies.replyFor(scenario, request);
    long latency = reply.latencyMillis() != null ? reply.latencyMillis() : script.latencyMillis();
    if ("hang".equals(reply.fail())) {
      return new CompletableFuture<>();
    }
    return after(latency, () -> streamed(replies.toModelReply(reply, request), request));
  }

  /** Hands the reply's text on in up to four pieces, cut after spaces, before the reply. */
  private ModelReply streamed(ModelReply reply, ModelRequest request) {
    String whole = reply.text() == null ? "" : reply.text();
    int from = 0;
    for (int piece = 1; piece <= PIECES && from < whole.length(); piece++) {
      int space = piece == PIECES ? -1 : whole.indexOf(' ', Math.max(from, whole.length() * piece / PIECES));
      int to = space < 0 ? whole.length() : space + 1;
      text.arrived(request, whole.substring(from, to));
      from = to;
    }
    return reply;
  }

  private <T> CompletionStage<T> after(long latencyMillis, Supplier<T> reply) {
    if (latencyMillis <= 0) {
      try {
        return CompletableFuture.completedFuture(reply.get());
      } catch (RuntimeException e) {
        return CompletableFuture.failedFuture(e);
      }
    }
    return CompletableFuture.supplyAsync(reply, CompletableFuture.delayedExecutor(latencyMillis, TimeUnit.MILLISECONDS,
        replyThreads));
  }
}
