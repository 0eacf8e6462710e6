package dev.agentloop.agent;

import dev.agentloop.resilience.EscapeException;
import dev.agentloop.worker.TaskResult;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The task results of the agent's escapes: package {@code resilience} decides whether a failure
 * escapes and with which BPMN error ({@link dev.agentloop.resilience.Escapes}); this turns that into
 * the worker's result, so that resilience and worker stay independent of each other. Thread-safe.
 */
class Escapes {

  private final dev.agentloop.resilience.Escapes escapes;

  Escapes(dev.agentloop.resilience.Escapes escapes) {
    this.escapes = Objects.requireNonNull(escapes, "escapes");
  }

  /** The BPMN error code of an escape. */
  static String errorCode(EscapeException.Reason reason) {
    return dev.agentloop.resilience.Escapes.errorCode(reason);
  }

  /**
   * The task result that raises the BPMN error for a failure the diagram models.
   *
   * @param write what to write with the error, in the same transaction (e.g. the observations of calls
   *     not run), so that no tool call is left without its observation
   * @param source the topic or element that escapes, for the metrics
   * @return empty when the failure is technical
   */
  Optional<TaskResult.Escape> toBpmnError(Throwable failure, Supplier<?> write, String source) {
    return escapes.toBpmnError(failure, source)
        .map(error -> new TaskResult.Escape(error.code(), error.message(), Map.of(), write));
  }
}
