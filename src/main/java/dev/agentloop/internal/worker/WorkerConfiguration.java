package dev.agentloop.internal.worker;

import dev.agentloop.internal.async.AgentLoopThreads;
import dev.agentloop.internal.llm.limits.ModelQueue;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.UUID;
import org.camunda.bpm.engine.ProcessEngine;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.core.io.ResourceLoader;
import org.springframework.transaction.PlatformTransactionManager;

/** The embedded worker; off with {@code agentloop.worker.enabled=false} (e.g. a node that only serves the UI). */
@Configuration(proxyBeanMethods = false)
public class WorkerConfiguration {

  private static final Logger LOG = LoggerFactory.getLogger(WorkerConfiguration.class);

  /** Exists with or without the worker: the engine plugin hands it to the agent tasks' listeners. */
  @Bean
  TaskArrivals taskArrivals() {
    return new TaskArrivals();
  }

  @Bean
  @ConditionalOnProperty(name = "agentloop.worker.enabled", havingValue = "true", matchIfMissing = true)
  ExternalTaskWorker<?> externalTaskWorker(ProcessEngine engine, PlatformTransactionManager transactionManager,
      List<TopicHandler<?>> handlers, WorkerSettings worker, TaskArrivals arrivals, ResourceLoader context,
      Environment environment, ModelQueue agentLoopModelQueue) {
    String workerId = workerId(worker.workerId(), environment.getProperty("server.port"));
    WorkerOptions settings = new WorkerOptions(workerId, worker.maxConcurrency(), worker.maxTasksPerFetch(),
        worker.lockDuration(), worker.idleWait(), worker.retries(), worker.retryBackoff(), worker.threads(),
        worker.shutdownGrace(), worker.maxTaskTime());
    return new ExternalTaskWorker<>(engine, transactionManager, sharingOneState(handlers), settings, arrivals,
        new AgentLoopThreads("agentloop-worker-", context.getClassLoader()), roomAt(agentLoopModelQueue));
  }

  /**
   * The model endpoint's room: every step of an agent but act calls the model, and a step taken while the endpoint
   * has no room would only wait here under a lock. Act steps are taken as the endpoint allows too: they are few
   * (most follow their think step on this node, locked by its completion) and soon call the model again.
   */
  private static TaskRoom roomAt(ModelQueue queue) {
    return new TaskRoom() {
      @Override
      public int free() {
        return queue.room();
      }

      @Override
      public void onFree(Runnable listener) {
        queue.onRoom(listener);
      }
    };
  }

  /**
   * The application's topic handlers as handlers of one state: the agent's handlers (plan, think, act)
   * all hand on its loop state, and they are the only ones. The bean list cannot say so in its type.
   */
  @SuppressWarnings("unchecked")
  private static List<TopicHandler<Object>> sharingOneState(List<TopicHandler<?>> handlers) {
    return handlers.stream().map(handler -> (TopicHandler<Object>) handler).toList();
  }

  /**
   * The configured id, else one that stays the same when the node restarts, so that it takes back
   * what it had locked: host name and HTTP port, which no two running processes on a host share.
   * With a random port (0) there is no such id: host name and a random suffix.
   */
  static String workerId(String configured, String serverPort) {
    if (configured != null && !configured.isBlank()) {
      return configured.strip();
    }
    String host;
    try {
      host = InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      host = "agentloop";
    }
    String port = serverPort == null || serverPort.isBlank() ? "8080" : serverPort.strip();
    if (port.equals("0")) {
      LOG.info("server.port is random: the worker id gets a random suffix, and after a crash this node's tasks"
          + " wait for their locks to expire. Set agentloop.worker.worker-id for a stable id");
      return host + "-" + UUID.randomUUID().toString().substring(0, 8);
    }
    return host + "-" + port;
  }
}
