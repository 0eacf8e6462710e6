package dev.agentloop;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;

/**
 * The demo app (modules/demo): Camunda engine, webapps and REST API, plus AgentLoop through its
 * auto-configuration — exactly what an application that embeds AgentLoop gets, which is why this
 * class scans no components of its own.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class AgentLoopApplication {

  public static void main(String[] args) {
    SpringApplication.run(AgentLoopApplication.class, args);
  }
}
