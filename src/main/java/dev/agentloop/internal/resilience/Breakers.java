package dev.agentloop.internal.resilience;

import dev.agentloop.internal.async.AsyncFailures;
import dev.failsafe.CircuitBreaker;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The circuit breakers of this JVM: one per tool, one per MCP server (shared by all its tools) and
 * one per model endpoint, each created once from
 * the typed settings and shared by every run. A breaker counts an attempt as failed when its error
 * is not persistent (a persistent error says the input was wrong, not that the target is unwell) and
 * as succeeded otherwise. Thread-safe.
 */
public class Breakers {

  private static final Logger LOG = LoggerFactory.getLogger(Breakers.class);

  /** What a breaker guards. */
  enum Kind {
    TOOL, MCP, MODEL;

    public String value() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  private final BreakerSettings toolSettings;
  private final Map<String, BreakerSettings> toolOverrides;
  private final BreakerSettings modelSettings;
  private final Predicate<Throwable> isFailure;
  private final ResilienceMetrics metrics;
  private final Map<String, Guarded> byName = new ConcurrentHashMap<>();
  private final Map<String, String> lastFailures = new ConcurrentHashMap<>();

  private record Guarded(Kind kind, String target, CircuitBreaker<Object> breaker) {}

  /**
   * @param toolOverrides settings of single tools by name, instead of {@code toolSettings}
   */
  Breakers(BreakerSettings toolSettings, Map<String, BreakerSettings> toolOverrides,
      BreakerSettings modelSettings, ErrorClassifier classifier, ResilienceMetrics metrics) {
    this.toolSettings = Objects.requireNonNull(toolSettings, "toolSettings");
    this.toolOverrides = Map.copyOf(toolOverrides);
    this.modelSettings = Objects.requireNonNull(modelSettings, "modelSettings");
    Objects.requireNonNull(classifier, "classifier");
    this.isFailure = error -> classifier.classify(error) != ErrorClass.PERSISTENT;
    this.metrics = Objects.requireNonNull(metrics, "metrics");
  }

  /** The breaker of a tool, created on first use. */
  public <R> CircuitBreaker<R> tool(String toolName) {
    return typed(breaker(Kind.TOOL, toolName));
  }

  /**
   * The breaker of an MCP server, created on first use; its settings are those of the tool breakers,
   * or of {@code tool-breakers.<server>}.
   */
  public <R> CircuitBreaker<R> mcpServer(String server) {
    return typed(breaker(Kind.MCP, server));
  }

  /**
   * Keeps an MCP server's breaker in step with its connection: opened (with why as its last failure)
   * when the server is not connected, so that the breaker panel and health show it, and closed when it
   * is connected again. After its delay the open breaker lets a trial call through as usual, which
   * fails while the server is still down and so counts against it.
   *
   * @param why why the server is not connected; {@code null} when it is connected
   */
  public void mcpServerAvailability(String server, String why) {
    CircuitBreaker<Object> breaker = breaker(Kind.MCP, server);
    if (why == null) {
      if (!breaker.isClosed()) {
        breaker.close();
      }
    } else {
      lastFailures.put(name(Kind.MCP, server), why);
      if (breaker.isClosed()) {
        breaker.open();
      }
    }
  }

  /** The breaker of a model endpoint, created on first use. */
  public <R> CircuitBreaker<R> model(String endpoint) {
    return typed(breaker(Kind.MODEL, endpoint));
  }

  /** Every breaker, by name. */
  public List<BreakerView> states() {
    return byName.entrySet().stream()
        .map(entry -> view(entry.getKey(), entry.getValue()))
        .sorted(Comparator.comparing(BreakerView::name))
        .toList();
  }

  public Optional<BreakerView> find(String name) {
    Guarded guarded = byName.get(name);
    return guarded == null ? Optional.empty() : Optional.of(view(name, guarded));
  }

  /** How long an open breaker still rejects calls; zero when it is not open or its delay has passed. */
  Duration remainingDelay(String name) {
    Guarded guarded = byName.get(name);
    return guarded == null ? Duration.ZERO : guarded.breaker().getRemainingDelay();
  }

  /** Remembers the latest failed attempt of a target, so that a refusal can say what the breaker reacted to. */
  void noteFailure(Kind kind, String target, Throwable error) {
    Throwable failure = AsyncFailures.unwrap(error);
    String message = failure.getMessage() == null ? failure.getClass().getSimpleName() : failure.getMessage();
    lastFailures.put(name(kind, target), message.length() <= 300 ? message : message.substring(0, 300) + "…");
  }

  /** What the latest failed attempt of a target said, or {@code null}. */
  String lastFailure(Kind kind, String target) {
    return lastFailures.get(name(kind, target));
  }

  static String name(Kind kind, String target) {
    return kind.value() + ":" + target;
  }

  private CircuitBreaker<Object> breaker(Kind kind, String target) {
    return byName.computeIfAbsent(name(kind, target), name -> create(name, kind, target)).breaker();
  }

  private Guarded create(String name, Kind kind, String target) {
    BreakerSettings settings = kind == Kind.MODEL ? modelSettings : toolOverrides.getOrDefault(target, toolSettings);
    CircuitBreaker<Object> breaker = CircuitBreaker.builder()
        .handleIf((result, error) -> error != null && isFailure.test(error))
        .withFailureThreshold(settings.failureThreshold(), settings.failureExecutions())
        .withDelay(settings.delay())
        .withSuccessThreshold(settings.successThreshold())
        .onOpen(event -> {
          LOG.warn("AGENTLOOP-015 circuit breaker {} opened: calls fail fast for {}. Its target failed again and again:"
              + " the lines before say why", name, settings.delay());
          metrics.breakerTransition(name, "OPEN");
        })
        .onHalfOpen(event -> {
          LOG.info("circuit breaker {} half-open: trial calls go through", name);
          metrics.breakerTransition(name, "HALF_OPEN");
        })
        .onClose(event -> {
          LOG.info("circuit breaker {} closed", name);
          metrics.breakerTransition(name, "CLOSED");
        })
        .build();
    metrics.breaker(name, kind.value(), target, breaker);
    return new Guarded(kind, target, breaker);
  }

  private static BreakerView view(String name, Guarded guarded) {
    return new BreakerView(name, guarded.kind().value(), guarded.target(), guarded.breaker().getState().name());
  }

  @SuppressWarnings("unchecked")
  private static <R> CircuitBreaker<R> typed(CircuitBreaker<Object> breaker) {
    // the breaker judges errors only, never results, so one instance serves calls of any result type
    return (CircuitBreaker<R>) (CircuitBreaker<?>) breaker;
  }
}
