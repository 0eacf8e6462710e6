package dev.agentloop.internal.web;

import dev.agentloop.internal.resilience.BreakerView;
import dev.agentloop.internal.resilience.Breakers;
import java.util.List;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /api/breakers}: the circuit breakers of this node, one per tool and per model endpoint,
 * e.g. {@code [{"name": "tool:http_get", "kind": "tool", "target": "http_get", "state": "CLOSED"}]}.
 * Any authenticated user may read them (they name tools and endpoints, nothing of any run).
 */
@RestController
@RequestMapping(path = "${agentloop.api.base-path}/breakers", produces = "application/json")
class BreakerController {

  private final Breakers breakers;

  BreakerController(Breakers breakers) {
    this.breakers = breakers;
  }

  @GetMapping
  List<BreakerView> breakers() {
    return breakers.states();
  }
}
