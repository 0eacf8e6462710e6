package dev.agentloop.internal.events;

import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.internal.trace.StepStore;
import org.camunda.bpm.engine.ProcessEngine;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The source of runs' events, see {@link RunEvents}; not web-bound, so that any protocol can stream runs. */
@Configuration(proxyBeanMethods = false)
public class EventsConfiguration {

  @Bean(destroyMethod = "close")
  RunEvents runEvents(ProcessEngine engine, StepStore store, RunService runs, RunEventsSettings settings,
      ApplicationContext context) {
    return new RunEvents(engine, store, runs, settings, context.getClassLoader());
  }
}
