package com.example.secured;

import dev.agentloop.spi.ChatModel;
import dev.agentloop.spi.ModelReply;
import dev.agentloop.spi.ModelRequest;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/** The host's own model (a {@link ChatModel} bean wins over agentloop.llm.provider): plans, then answers. */
class AnsweringModel implements ChatModel {

  @Override
  public CompletionStage<ModelReply> chat(ModelRequest request) {
    String text = request.purpose() == ModelRequest.Purpose.PLAN ? "1. Answer from what I know." : "The answer is 42.";
    return CompletableFuture.completedFuture(new ModelReply(text, List.of(), 10));
  }

  @Override
  public String endpoint() {
    return "test:answering";
  }
}
