package dev.agentloop.internal.agent.loop;

import dev.agentloop.internal.llm.PromptJson;
import dev.agentloop.spi.ModelReply;
import dev.agentloop.spi.ModelRequest;
import dev.agentloop.spi.TokenCounts;
import dev.agentloop.internal.trace.SentPrompt;
import dev.agentloop.internal.trace.StepCost;
import dev.agentloop.internal.trace.Usage;
import java.util.concurrent.TimeUnit;

/**
 * What a model or tool call cost, measured where the agent makes it: wall time from the call to its
 * result (retries and back-off included, as that is what the run waited), and for a model call the
 * tokens its provider reported and the prompt it was sent. Written beside the steps, never into them.
 */
final class CallCosts {

  private CallCosts() {}

  /** A moment to measure from; {@link System#nanoTime()}, which no clock change moves. */
  static long start() {
    return System.nanoTime();
  }

  static long millisSince(long start) {
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
  }

  /** The usage of one model call that started at {@code start}. */
  static Usage modelCall(ModelRequest request, ModelReply reply, long start) {
    TokenCounts tokens = reply.usage();
    StepCost cost = StepCost.modelCall(millisSince(start), tokens.prompt(), tokens.completion(), tokens.total(),
        tokens.cacheRead(), tokens.cacheWrite(), reply.model());
    return Usage.modelCall(cost, new SentPrompt(request.purpose().name(), PromptJson.messages(request),
        PromptJson.tools(request)));
  }
}
