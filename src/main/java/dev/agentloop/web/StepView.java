package dev.agentloop.web;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.trace.Step;
import dev.agentloop.trace.StepKind;
import dev.agentloop.trace.StepStatus;
import java.time.Instant;

/** One step in a trace response. */
record StepView(
    int id,
    Integer parent,
    StepKind kind,
    int turn,
    StepStatus status,
    String author,
    Instant createdAt,
    Integer supersedes,
    String reason,
    JsonNode content) {

  static StepView of(Step step) {
    return new StepView(step.stepNo(), step.parentNo(), step.kind(), step.turn(), step.status(), step.author(),
        step.createdAt(), step.supersedes(), step.reason(), step.json());
  }
}
