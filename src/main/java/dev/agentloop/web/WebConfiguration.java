package dev.agentloop.web;

import dev.agentloop.agent.AgentRuns;
import dev.agentloop.config.AgentLoopProperties;
import dev.agentloop.resume.ResumeService;
import dev.agentloop.resume.RunRestarts;
import dev.agentloop.resilience.Breakers;
import dev.agentloop.review.ReviewTasks;
import dev.agentloop.security.RunAccess;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The REST API's controllers (under {@code agentloop.api.base-path}) and its problem handling. */
@Configuration(proxyBeanMethods = false)
public class WebConfiguration {

  @Bean
  RunController runController(AgentRuns runs, ReviewTasks tasks, RunAccess access, AgentLoopProperties properties) {
    return new RunController(runs, tasks, access, properties.api().basePath());
  }

  @Bean
  ResumeController resumeController(ResumeService resume, RunRestarts restarts, AgentRuns runs, RunAccess access,
      AgentLoopProperties properties) {
    return new ResumeController(resume, restarts, runs, access, properties.api().basePath());
  }

  @Bean
  BreakerController breakerController(Breakers breakers) {
    return new BreakerController(breakers);
  }

  @Bean
  ApiProblems apiProblems() {
    return new ApiProblems();
  }
}
