package dev.agentloop.internal.web.a2a;

import dev.agentloop.internal.agent.definition.AgentDefinitions;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.internal.events.RunEvents;
import dev.agentloop.internal.resume.Conversations;
import dev.agentloop.internal.resume.ResumeService;
import dev.agentloop.internal.review.ReviewTasks;
import dev.agentloop.internal.security.ProtocolPath;
import dev.agentloop.internal.security.RunAccess;
import org.camunda.bpm.engine.ProcessEngine;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The A2A server, in a servlet web application where {@code agentloop.a2a.enabled} (the default). */
@Configuration(proxyBeanMethods = false)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnProperty(name = "agentloop.a2a.enabled", havingValue = "true")
public class A2aConfiguration {

  /** The agents' path behind the REST API's authentication. */
  @Bean
  ProtocolPath agentLoopA2aPath(A2aSettings settings) {
    return new ProtocolPath(settings.path());
  }

  @Bean
  A2aController a2aController(A2aSettings settings, ProcessEngine engine, RunService runs, ReviewTasks reviews,
      AgentDefinitions definitions, Conversations conversations, RunAccess access, ResumeService resume,
      RunEvents events) {
    A2aTasks tasks = new A2aTasks(engine, runs, reviews, definitions);
    A2aMessages messages = new A2aMessages(runs, conversations, reviews, access, tasks);
    return new A2aController(settings, access, new AgentCards(engine, definitions),
        new A2aRequests(runs, resume, events, messages, tasks, settings.maxWait()));
  }
}
