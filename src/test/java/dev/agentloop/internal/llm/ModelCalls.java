package dev.agentloop.internal.llm;

import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentloop.spi.ChatMessage;
import dev.agentloop.spi.ModelCallException;
import dev.agentloop.spi.ModelReply;
import dev.agentloop.spi.ModelRequest;
import dev.agentloop.spi.ToolSpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * What the adapter tests of every wire share: waiting for a call's reply or failure (bounded, so that a
 * hanging adapter fails its test instead of blocking it), requests, and the schemas they send.
 */
public final class ModelCalls {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long GUARD_SECONDS = 15;

  /**
   * A tool schema as pydantic (and with it the official MCP Python SDK) writes one for a model-typed
   * argument: the model under {@code $defs}, the property a {@code $ref} to it, a nested reference
   * and an old-style {@code definitions} entry beside it.
   */
  public static final String PYDANTIC_SCHEMA = """
      {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "place_orderArguments",
        "type": "object",
        "properties": {"order": {"$ref": "#/$defs/Order"}, "note": {"$ref": "#/definitions/Note"}},
        "required": ["order"],
        "additionalProperties": false,
        "$defs": {
          "Order": {
            "title": "Order", "type": "object",
            "properties": {
              "sku": {"type": "string", "pattern": "^[A-Z]{3}-\\\\d+$"},
              "quantity": {"type": "integer", "minimum": 1},
              "address": {"$ref": "#/$defs/Address"}
            },
            "required": ["sku", "quantity"]
          },
          "Address": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
        },
        "definitions": {"Note": {"type": "string", "maxLength": 200}}
      }
      """;

  private ModelCalls() {}

  public static ModelRequest request(List<ToolSpec> tools, ChatMessage... messages) {
    return new ModelRequest(ModelRequest.Purpose.THINK, List.of(messages), tools,
        new ModelRequest.RunInfo("run-1", "Hello?", 1, 0));
  }

  public static ModelReply reply(CompletionStage<ModelReply> stage) {
    return guarded(stage).join();
  }

  public static ModelCallException failure(CompletionStage<ModelReply> stage) {
    Throwable error = guarded(stage)
        .handle((reply, thrown) -> thrown == null ? new AssertionError("expected a failure but got " + reply) : thrown)
        .join();
    Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    if (!(cause instanceof ModelCallException modelCallException)) {
      return fail("expected a ModelCallException but got " + cause, cause);
    }
    return modelCallException;
  }

  public static JsonNode json(String text) {
    try {
      return JSON.readTree(text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static CompletableFuture<ModelReply> guarded(CompletionStage<ModelReply> stage) {
    return stage.toCompletableFuture().orTimeout(GUARD_SECONDS, TimeUnit.SECONDS);
  }
}
