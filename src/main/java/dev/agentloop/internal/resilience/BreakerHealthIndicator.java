package dev.agentloop.internal.resilience;

import java.util.List;
import java.util.stream.Collectors;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.actuate.health.Status;

/**
 * The {@code breakers} component of {@code /actuator/health}: UP while every circuit breaker is
 * closed, else {@value #DEGRADED} with a description naming the breakers that are not (HTTP 200: the
 * node works, some tool or model endpoint does not). The description is shown without details, so
 * anonymous callers see which breakers are open and nothing else.
 */
class BreakerHealthIndicator implements HealthIndicator {

  static final String DEGRADED = "DEGRADED";

  private final Breakers breakers;

  BreakerHealthIndicator(Breakers breakers) {
    this.breakers = breakers;
  }

  @Override
  public Health health() {
    List<BreakerView> notClosed = breakers.states().stream().filter(view -> !view.closed()).toList();
    if (notClosed.isEmpty()) {
      return Health.up().withDetail("breakers", breakers.states().size()).build();
    }
    String description = "circuit breakers not closed: "
        + notClosed.stream().map(view -> view.name() + " " + view.state()).collect(Collectors.joining(", "));
    return Health.status(new Status(DEGRADED, description))
        .withDetail("open", notClosed.stream().map(BreakerView::name).toList()).build();
  }
}
