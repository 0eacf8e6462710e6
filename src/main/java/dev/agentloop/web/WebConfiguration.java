package dev.agentloop.web;

import dev.agentloop.agent.AgentRuns;
import dev.agentloop.review.ReviewTasks;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The REST API's controllers and its problem handling. */
@Configuration(proxyBeanMethods = false)
public class WebConfiguration {

  @Bean
  RunController runController(AgentRuns runs, ReviewTasks tasks) {
    return new RunController(runs, tasks);
  }

  @Bean
  ApiProblems apiProblems() {
    return new ApiProblems();
  }
}
