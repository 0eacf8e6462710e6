package dev.agentloop.internal.telemetry;

import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Where a run's spans hang in its trace: the W3C {@code traceparent} of its {@code invoke_agent} span, stored with the
 * run (process variable {@value RunTraces#VARIABLE}), and the agent's name.
 *
 * @param traceId 32 lower-case hex digits
 * @param spanId 16 lower-case hex digits, the run's {@code invoke_agent} span
 * @param conversation the conversation id its client started it under ({@code gen_ai.conversation.id}), {@code null}
 *     where there is none: then the run is its own conversation, named by its id
 */
record RunTrace(String traceId, String spanId, boolean sampled, String agent, String conversation) {

  private static final Pattern TRACEPARENT = Pattern.compile("00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})");

  RunTrace {
    Objects.requireNonNull(agent, "agent");
    if (traceId == null || !traceId.matches("[0-9a-f]{32}") || traceId.chars().allMatch(c -> c == '0')) {
      throw new IllegalArgumentException("traceId must be 32 hex digits, not all zero, but was '" + traceId + "'");
    }
    if (spanId == null || !spanId.matches("[0-9a-f]{16}") || spanId.chars().allMatch(c -> c == '0')) {
      throw new IllegalArgumentException("spanId must be 16 hex digits, not all zero, but was '" + spanId + "'");
    }
  }

  /** A run without a conversation id of its client's. */
  RunTrace(String traceId, String spanId, boolean sampled, String agent) {
    this(traceId, spanId, sampled, agent, null);
  }

  /** The same position, in the conversation its client named ({@code null}: none). */
  RunTrace inConversation(String conversationId) {
    return new RunTrace(traceId, spanId, sampled, agent,
        conversationId == null || conversationId.isBlank() ? null : conversationId);
  }

  /** The stored form, W3C Trace Context version 00. */
  String traceparent() {
    return "00-" + traceId + "-" + spanId + (sampled ? "-01" : "-00");
  }

  /** A stored {@code traceparent}; {@code null} for anything that is not one, so a damaged variable starts no trace. */
  static RunTrace parse(Object traceparent, String agent) {
    if (!(traceparent instanceof String text)) {
      return null;
    }
    var match = TRACEPARENT.matcher(text.trim().toLowerCase(Locale.ROOT));
    if (!match.matches()) {
      return null;
    }
    try {
      boolean sampled = (Integer.parseInt(match.group(3), 16) & 1) == 1;
      return new RunTrace(match.group(1), match.group(2), sampled, agent);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }
}
