package com.example.orders;

import java.net.URI;
import java.util.List;
import java.util.Map;
import org.camunda.bpm.engine.RuntimeService;
import org.camunda.bpm.engine.runtime.ProcessInstance;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** The team's own API under /api, next to AgentLoop's: orders that go through the order-approval process. */
@RestController
@RequestMapping("/api/orders")
class OrderController {

  static final String PROCESS = "order-approval";

  private final RuntimeService runtime;

  OrderController(RuntimeService runtime) {
    this.runtime = runtime;
  }

  record NewOrder(String item, long amount) {}

  record Order(String id, String item, boolean open) {}

  @PostMapping
  ResponseEntity<Order> place(@RequestBody NewOrder order) {
    ProcessInstance instance = runtime.startProcessInstanceByKey(PROCESS,
        Map.of("item", order.item(), "amount", order.amount()));
    return ResponseEntity.created(URI.create("/api/orders/" + instance.getId()))
        .body(new Order(instance.getId(), order.item(), true));
  }

  @GetMapping
  List<Order> open() {
    return runtime.createProcessInstanceQuery().processDefinitionKey(PROCESS).list().stream()
        .map(instance -> new Order(instance.getId(), (String) runtime.getVariable(instance.getId(), "item"), true))
        .toList();
  }
}
