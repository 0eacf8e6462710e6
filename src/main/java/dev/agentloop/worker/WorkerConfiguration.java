package dev.agentloop.worker;

import dev.agentloop.config.AgentLoopProperties;
import dev.agentloop.config.AgentLoopThreads;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.UUID;
import org.camunda.bpm.engine.ProcessEngine;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.ResourceLoader;
import org.springframework.transaction.PlatformTransactionManager;

/** The embedded worker; off with {@code agentloop.worker.enabled=false} (e.g. a node that only serves the UI). */
@Configuration(proxyBeanMethods = false)
public class WorkerConfiguration {

  /** Exists with or without the worker: the engine plugin hands it to the agent tasks' listeners. */
  @Bean
  TaskArrivals taskArrivals() {
    return new TaskArrivals();
  }

  @Bean
  @ConditionalOnProperty(name = "agentloop.worker.enabled", havingValue = "true", matchIfMissing = true)
  ExternalTaskWorker externalTaskWorker(ProcessEngine engine, PlatformTransactionManager transactionManager,
      List<TopicHandler> handlers, AgentLoopProperties properties, TaskArrivals arrivals, ResourceLoader context) {
    AgentLoopProperties.Worker worker = properties.worker();
    WorkerSettings settings = new WorkerSettings(workerId(worker.workerId()), worker.maxConcurrency(),
        worker.maxTasksPerFetch(), worker.lockDuration(), worker.idleWait(), worker.retries(), worker.retryBackoff(),
        worker.threads(), worker.shutdownGrace());
    return new ExternalTaskWorker(engine, transactionManager, handlers, settings, arrivals,
        new AgentLoopThreads("agentloop-worker-", context.getClassLoader()));
  }

  private static String workerId(String configured) {
    if (configured != null && !configured.isBlank()) {
      return configured;
    }
    String host;
    try {
      host = InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      host = "agentloop";
    }
    return host + "-" + UUID.randomUUID().toString().substring(0, 8);
  }
}
