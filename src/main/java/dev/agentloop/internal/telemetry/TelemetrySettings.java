package dev.agentloop.internal.telemetry;

import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * What AgentLoop's spans may carry ({@code agentloop.telemetry.*}, bound by package {@code config}). Whether spans are
 * made and where they go is the host's tracing setup (Spring Boot's {@code management.tracing.*}).
 *
 * @param captureContent whether model and tool spans carry the messages, arguments and results
 *     (`gen_ai.input.messages`, `gen_ai.output.messages`, `gen_ai.tool.call.arguments`,
 *     `gen_ai.tool.call.result`) and decision spans the reason a person gave; off by default, since prompts and
 *     tool results may hold personal data
 */
public record TelemetrySettings(@DefaultValue("false") boolean captureContent) {

  /** Spans without content. */
  public static final TelemetrySettings DEFAULTS = new TelemetrySettings(false);
}
