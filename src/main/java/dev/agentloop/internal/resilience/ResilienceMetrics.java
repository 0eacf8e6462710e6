package dev.agentloop.internal.resilience;

import dev.failsafe.CircuitBreaker;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Objects;

/**
 * AgentLoop's meters, in Micrometer (and so in {@code /actuator/prometheus}, with dots as underscores):
 * <ul>
 *   <li>{@code agentloop.model.calls} (timer; endpoint, outcome success|failure|rejected): latency of
 *       whole model calls, retries included; {@code agentloop.model.tokens} (counter; endpoint);
 *       {@code agentloop.model.failures} (counter; endpoint, class): failed attempts;
 *       {@code agentloop.model.queue} (gauge; endpoint): calls waiting for the endpoint's limits to let them go;
 *       {@code agentloop.model.in-flight} (gauge; endpoint): calls under way at the endpoint;
 *   <li>{@code agentloop.tool.calls} (timer; tool, outcome) and {@code agentloop.tool.failures}
 *       (counter; tool, class transient|persistent|unknown);
 *   <li>{@code agentloop.breaker.state} (gauge; name, kind, target): 0 closed, 1 half-open, 2 open;
 *       {@code agentloop.breaker.transitions} (counter; name, state): how often a breaker entered a state;
 *   <li>{@code agentloop.loop.detections} (counter; pattern repeat|cycle|failure, level warning|loop);
 *   <li>{@code agentloop.escapes} (counter; code LOOP_DETECTED|BUDGET_EXHAUSTED|TOOL_UNAVAILABLE, source).
 * </ul>
 * Tags are tool names and endpoints, never arguments or run ids. Thread-safe.
 */
public class ResilienceMetrics {

  /** The outcome of a whole call. */
  public enum Outcome { SUCCESS, FAILURE, REJECTED }

  private final MeterRegistry registry;

  public ResilienceMetrics(MeterRegistry registry) {
    this.registry = Objects.requireNonNull(registry, "registry");
  }

  MeterRegistry registry() {
    return registry;
  }

  void modelCall(String endpoint, Duration latency, Outcome outcome) {
    Timer.builder("agentloop.model.calls").description("Model calls, retries included")
        .tags("endpoint", endpoint, "outcome", tag(outcome)).register(registry).record(latency);
  }

  void modelTokens(String endpoint, long tokens) {
    if (tokens > 0) {
      Counter.builder("agentloop.model.tokens").description("Tokens the model endpoint reported")
          .tags("endpoint", endpoint).register(registry).increment(tokens);
    }
  }

  void modelFailure(String endpoint, ErrorClass errorClass) {
    Counter.builder("agentloop.model.failures").description("Failed model call attempts")
        .tags("endpoint", endpoint, "class", errorClass.tag()).register(registry).increment();
  }

  /** The endpoint's queue: how many calls wait, how many are under way. */
  void modelQueue(String endpoint, java.util.function.IntSupplier waiting, java.util.function.IntSupplier inFlight) {
    Gauge.builder("agentloop.model.queue", waiting, supplier -> supplier.getAsInt())
        .description("Model calls waiting for the endpoint's limits (calls under way, requests or tokens per minute,"
            + " a wait the provider asked for)")
        .tags("endpoint", endpoint).strongReference(true).register(registry);
    Gauge.builder("agentloop.model.in-flight", inFlight, supplier -> supplier.getAsInt())
        .description("Model calls under way at the endpoint")
        .tags("endpoint", endpoint).strongReference(true).register(registry);
  }

  void toolCall(String tool, Duration latency, Outcome outcome) {
    Timer.builder("agentloop.tool.calls").description("Tool calls, retries included")
        .tags("tool", tool, "outcome", tag(outcome)).register(registry).record(latency);
  }

  void toolFailure(String tool, ErrorClass errorClass) {
    Counter.builder("agentloop.tool.failures").description("Failed tool call attempts")
        .tags("tool", tool, "class", errorClass.tag()).register(registry).increment();
  }

  void breaker(String name, String kind, String target, CircuitBreaker<?> breaker) {
    Gauge.builder("agentloop.breaker.state", breaker, ResilienceMetrics::stateValue)
        .description("Circuit breaker state: 0 closed, 1 half-open, 2 open")
        .tags("name", name, "kind", kind, "target", target).register(registry);
  }

  void breakerTransition(String name, String state) {
    Counter.builder("agentloop.breaker.transitions").description("Circuit breaker state changes")
        .tags("name", name, "state", state).register(registry).increment();
  }

  /** A loop the detector found on a run's active path. */
  public void loopDetection(String pattern, boolean escaped) {
    Counter.builder("agentloop.loop.detections").description("Loops found on active paths")
        .tags("pattern", pattern, "level", escaped ? "loop" : "warning").register(registry).increment();
  }

  /** A run that left its agent loop for the agentStuck task. */
  void escape(String code, String source) {
    Counter.builder("agentloop.escapes").description("Runs that escaped their agent loop")
        .tags("code", code, "source", source).register(registry).increment();
  }

  private static double stateValue(CircuitBreaker<?> breaker) {
    return switch (breaker.getState()) {
      case CLOSED -> 0;
      case HALF_OPEN -> 1;
      case OPEN -> 2;
    };
  }

  private static String tag(Outcome outcome) {
    return outcome.name().toLowerCase(java.util.Locale.ROOT);
  }
}
