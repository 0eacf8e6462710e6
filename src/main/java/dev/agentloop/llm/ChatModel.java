package dev.agentloop.llm;

import java.util.concurrent.CompletionStage;

/**
 * The port every chat model adapter implements. Calls are asynchronous so that waiting for a model
 * pins no worker thread; an adapter whose client blocks runs it on its own bounded pool.
 *
 * <p>A failed call completes exceptionally with a {@link ModelCallException} that says whether
 * retrying may help. Implementations are thread-safe.
 */
public interface ChatModel {

  CompletionStage<ModelReply> chat(ModelRequest request);

  /** Identifies the endpoint for breakers, metrics and logs, e.g. {@code openai:https://host/v1}. Never a key. */
  String endpoint();

  /**
   * About how many tokens of this model a text is: what a run's context budget is counted in. The
   * default, a token per four characters, fits English text with OpenAI's tokenizers.
   */
  default int estimateTokens(String text) {
    return (text.length() + 3) / 4;
  }
}
