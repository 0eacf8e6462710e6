package dev.agentloop.demo;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;

/**
 * The demo app (modules/demo): Camunda engine, webapps and REST API, plus AgentLoop through its
 * auto-configuration — exactly what an application that embeds AgentLoop gets — and the demo's own
 * material ({@link DemoConfiguration}: its users and the flaky tool). It scans no components, so
 * nothing else of the class path becomes part of it.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import(DemoConfiguration.class)
public class DemoApplication {

  public static void main(String[] args) {
    SpringApplication.run(DemoApplication.class, args);
  }
}
