package dev.agentloop.web;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

/**
 * Body of {@code POST /api/runs}.
 *
 * @param question what the agent should answer; a NUL in it is stored as U+FFFD, as all text is
 * @param agent the agent's process key; default {@code react-agent}
 */
record StartRunRequest(
    @NotBlank(message = "must not be blank: say what the agent should answer")
    @Size(max = 20_000, message = "must be at most 20000 characters")
    String question,
    @Size(max = 255, message = "must be at most 255 characters")
    @Pattern(regexp = "[^\\x00]*", message = "must be a process-definition key, without NUL characters")
    String agent) {}
