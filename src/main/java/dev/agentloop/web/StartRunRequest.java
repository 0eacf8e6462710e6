package dev.agentloop.web;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

/**
 * Body of {@code POST /api/runs}.
 *
 * @param agent the agent's process key; default {@code react-agent}
 */
record StartRunRequest(
    @NotBlank(message = "must not be blank: say what the agent should answer")
    @Size(max = 20_000, message = "must be at most 20000 characters")
    String question,
    @Size(max = 255) String agent) {}
