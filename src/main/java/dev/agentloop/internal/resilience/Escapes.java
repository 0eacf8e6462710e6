package dev.agentloop.internal.resilience;

import dev.agentloop.internal.async.AsyncFailures;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place where failures become BPMN errors. Only an {@link EscapeException} does: it stands
 * for an outcome the agent diagram models with a boundary error event on its agent loop. Every other
 * failure is technical and stays an exception (external-task retries, then an incident). What the
 * worker completes the task with is the agent's business ({@code agent.Escapes}): resilience and
 * worker do not know each other. Thread-safe.
 */
public class Escapes {

  /** The agent loop repeats itself; raised by {@code think} before it calls the model again. */
  public static final String LOOP_DETECTED = "LOOP_DETECTED";
  /** A budget of the run (model calls, tool calls, tokens, steps) is used up. */
  public static final String BUDGET_EXHAUSTED = "BUDGET_EXHAUSTED";
  /** The model called a tool again while its circuit breaker is open. */
  public static final String TOOL_UNAVAILABLE = "TOOL_UNAVAILABLE";

  private static final int MESSAGE_CHARS = 3_900;

  private static final Logger LOG = LoggerFactory.getLogger(Escapes.class);

  private final ResilienceMetrics metrics;

  Escapes(ResilienceMetrics metrics) {
    this.metrics = metrics;
  }

  /** The BPMN error code of an escape. */
  public static String errorCode(EscapeException.Reason reason) {
    return switch (reason) {
      case LOOP_DETECTED -> LOOP_DETECTED;
      case BUDGET_EXHAUSTED -> BUDGET_EXHAUSTED;
      case TOOL_UNAVAILABLE -> TOOL_UNAVAILABLE;
    };
  }

  /**
   * A BPMN error to raise: its code, and the message the engine stores with it.
   *
   * @param message at most 3,900 characters
   */
  public record BpmnError(String code, String message) {
    public BpmnError {
      Objects.requireNonNull(code, "code");
      Objects.requireNonNull(message, "message");
    }
  }

  /**
   * The BPMN error for a failure the diagram models; counted with {@link #escaped} once it is raised.
   *
   * @return empty when the failure is technical
   */
  public Optional<BpmnError> toBpmnError(Throwable failure) {
    if (!(AsyncFailures.unwrap(failure) instanceof EscapeException escape)) {
      return Optional.empty();
    }
    String code = errorCode(escape.reason());
    LOG.info("run leaves its agent loop with {}: {}", code, escape.getMessage());
    return Optional.of(new BpmnError(code, shortened(escape.getMessage())));
  }

  /**
   * The engine stores an error's message in the boundary event's message variable, a Camunda string
   * of at most 4,000 characters; an escape's message may quote a model's long arguments.
   */
  private static String shortened(String message) {
    return message.length() <= MESSAGE_CHARS ? message : message.substring(0, MESSAGE_CHARS - 1) + "…";
  }

  /**
   * Counts an escape in the metrics, once the change that made it has committed (a BPMN error raised, the run-time
   * budget's boundary timer fired, a tree's budget spent): a job the engine runs again after a conflict is one escape.
   *
   * @param source the topic or element that escapes
   */
  public void escaped(String code, String source) {
    metrics.escape(code, source);
  }
}
