package dev.agentloop;

import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.spring.boot.starter.property.CamundaBpmProperties;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * The host application the library's tests run AgentLoop in: the Camunda engine, webapps and REST API,
 * plus AgentLoop through its auto-configuration, as in any application that embeds it, and the test
 * users ({@link TestUsers}). Configured by the tests' application.yaml; the cluster tests start it in
 * JVMs of their own through {@link #main}. The demo app (modules/demo) is another application.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class AgentLoopApplication {

  public static void main(String[] args) {
    SpringApplication.run(AgentLoopApplication.class, args);
  }

  @Bean
  TestUsers testUsers(ProcessEngine engine, CamundaBpmProperties camunda) {
    return new TestUsers(engine, camunda.getAdminUser() == null ? null : camunda.getAdminUser().getId());
  }
}
