package com.example.secured;

import java.util.List;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** The team's own API under /api, beside AgentLoop's, for the ORDERS role only (see {@link HostSecurity}). */
@RestController
@RequestMapping("/api/orders")
class OrderController {

  record Order(String id, String item) {}

  @GetMapping
  List<Order> orders() {
    return List.of(new Order("o-1", "chairs"));
  }
}
