package dev.agentloop.internal.telemetry;

import dev.agentloop.internal.llm.LlmSettings;
import dev.agentloop.spi.ChatModel;

/**
 * Makes a chat model's calls spans of their runs' traces ({@link TracedChatModel}), or leaves it as it is when the
 * host has no tracing. The provider is the endpoint's scheme ({@code openai}, {@code anthropic}, {@code langchain4j},
 * {@code scripted}); the model is {@code agentloop.llm.model} where AgentLoop's own adapters call it, else the
 * endpoint. Thread-safe.
 */
public class ModelSpans {

  private final RunTraces traces;
  private final LlmSettings llm;

  public ModelSpans(RunTraces traces, LlmSettings llm) {
    this.traces = traces;
    this.llm = llm;
  }

  public ChatModel traced(ChatModel model) {
    if (!traces.enabled()) {
      return model;
    }
    String endpoint = model.endpoint();
    int colon = endpoint.indexOf(':');
    String provider = colon < 0 ? endpoint : endpoint.substring(0, colon);
    boolean ownAdapter = llm != null && llm.model() != null
        && (llm.provider() == LlmSettings.Provider.OPENAI || llm.provider() == LlmSettings.Provider.ANTHROPIC)
        && (provider.equals("openai") || provider.equals("anthropic"));
    ModelIdentity identity = ModelIdentity.of(endpoint, ownAdapter ? llm.model() : null);
    // the runs' invoke_agent spans name the model their calls go to
    traces.calls(identity);
    return new TracedChatModel(model, traces, identity);
  }
}
