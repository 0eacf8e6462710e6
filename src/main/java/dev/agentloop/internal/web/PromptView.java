package dev.agentloop.internal.web;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Body of {@code GET /api/runs/{id}/steps/{no}/prompt}: what the model received in the call that
 * wrote the step, as AgentLoop handed it to the model adapter (no endpoint, header or key is part of it).
 *
 * @param purpose {@code PLAN} or {@code THINK}
 * @param messages one object per message: {@code role} (system, user, assistant, tool) and {@code text};
 *     an assistant's {@code toolCalls}, a tool result's {@code callId} and {@code tool}
 * @param tools the tools offered: name, description and the JSON Schema of their arguments
 */
record PromptView(String runId, int step, String purpose, JsonNode messages, JsonNode tools) {}
