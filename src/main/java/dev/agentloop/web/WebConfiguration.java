package dev.agentloop.web;

import dev.agentloop.agent.AgentRuns;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The REST API's controllers and its problem handling. */
@Configuration(proxyBeanMethods = false)
public class WebConfiguration {

  @Bean
  RunController runController(AgentRuns runs) {
    return new RunController(runs);
  }

  @Bean
  ApiProblems apiProblems() {
    return new ApiProblems();
  }
}
