package dev.agentloop.agent;

import dev.agentloop.config.AgentLoopProperties;
import dev.agentloop.llm.ChatModel;
import dev.agentloop.tool.ToolRegistry;
import dev.agentloop.tool.ToolRunner;
import dev.agentloop.trace.StepStore;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.RepositoryService;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The agent's services and the handlers of its topics. */
@Configuration(proxyBeanMethods = false)
public class AgentConfiguration {

  @Bean
  RunLifecycle runLifecycle(StepStore store) {
    return new RunLifecycle(store);
  }

  @Bean
  AgentDefinitions agentDefinitions(RepositoryService repository, AgentLoopProperties properties) {
    return new AgentDefinitions(repository, properties.agent());
  }

  @Bean
  AgentRuns agentRuns(ProcessEngine engine, StepStore store, AgentDefinitions definitions) {
    return new AgentRuns(engine, store, definitions);
  }

  @Bean
  PlanHandler planHandler(AgentDefinitions definitions, StepStore store, ChatModel model) {
    return new PlanHandler(definitions, store, model);
  }

  @Bean
  ThinkHandler thinkHandler(AgentDefinitions definitions, StepStore store, ChatModel model, ToolRegistry tools) {
    return new ThinkHandler(definitions, new LoopStateReader(store), store, model, tools);
  }

  @Bean
  ActHandler actHandler(AgentDefinitions definitions, StepStore store, ToolRegistry tools, ToolRunner runner) {
    return new ActHandler(definitions, new LoopStateReader(store), store, tools, runner);
  }
}
