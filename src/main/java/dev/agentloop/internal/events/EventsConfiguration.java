package dev.agentloop.internal.events;

import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.internal.trace.StepStore;
import dev.agentloop.internal.llm.ModelText;
import org.camunda.bpm.engine.ProcessEngine;
import org.springframework.context.ApplicationContext;
import org.springframework.context.SmartLifecycle;
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

  /** The model's text as it arrives, to the followers of its run (where the model's adapter streams). */
  @Bean
  ModelText runText(RunEvents events) {
    return new RunText(events);
  }

  /**
   * Ends every following when the application begins to stop, before the web server's graceful shutdown waits for
   * open requests: a stream would otherwise keep it waiting until its time-out. Clients resume on another node.
   */
  @Bean
  SmartLifecycle runEventsShutdown(RunEvents events) {
    return new SmartLifecycle() {
      private volatile boolean running;

      @Override
      public void start() {
        running = true;
      }

      @Override
      public void stop() {
        running = false;
        events.close();
      }

      @Override
      public boolean isRunning() {
        return running;
      }
    };
  }
}
