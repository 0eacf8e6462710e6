package dev.agentloop.agent;

import dev.agentloop.config.AgentLoopProperties;
import dev.agentloop.llm.ChatModel;
import dev.agentloop.tool.ToolApprovals;
import dev.agentloop.tool.ToolRegistry;
import dev.agentloop.tool.ToolRunner;
import dev.agentloop.trace.StepStore;
import dev.agentloop.worker.TopicHandler;
import java.util.List;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.RepositoryService;
import org.springframework.beans.factory.ObjectProvider;
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
  AgentDefinitions agentDefinitions(ObjectProvider<RepositoryService> repository, AgentLoopProperties properties) {
    return new AgentDefinitions(repository, properties.agent());
  }

  /** The topics are those this application has handlers for; remote workers serve the same topics. */
  @Bean
  AgentDiagramRules agentDiagramRules(ToolRegistry tools, ToolApprovals approvals, List<TopicHandler> handlers,
      AgentLoopProperties properties) {
    return new AgentDiagramRules(tools, approvals, handlers.stream().map(TopicHandler::topic).toList(),
        properties.agent());
  }

  @Bean
  AgentRuns agentRuns(ProcessEngine engine, StepStore store, AgentDefinitions definitions) {
    return new AgentRuns(engine, store, definitions);
  }

  @Bean
  LoopStateReader loopStateReader(StepStore store) {
    return new LoopStateReader(store);
  }

  @Bean
  Router router(ToolApprovals approvals) {
    return new Router(approvals);
  }

  @Bean
  RepeatedSideEffects repeatedSideEffects(StepStore store, ToolRegistry tools) {
    return new RepeatedSideEffects(store, tools);
  }

  @Bean
  PlanHandler planHandler(AgentDefinitions definitions, LoopStateReader reader, StepStore store, ChatModel model) {
    return new PlanHandler(definitions, reader, store, model);
  }

  @Bean
  ThinkHandler thinkHandler(AgentDefinitions definitions, LoopStateReader reader, StepStore store, ChatModel model,
      ToolRegistry tools, Router router, RepeatedSideEffects repeats) {
    return new ThinkHandler(definitions, reader, store, model, tools, router, repeats);
  }

  @Bean
  RemoteToolCalls remoteToolCalls(AgentDefinitions definitions, LoopStateReader reader, StepStore store,
      ToolRegistry tools) {
    return new RemoteToolCalls(definitions, reader, store, tools);
  }

  @Bean
  ActHandler actHandler(AgentDefinitions definitions, LoopStateReader reader, StepStore store, ToolRegistry tools,
      ToolRunner runner, Router router, RemoteToolCalls remoteCalls) {
    return new ActHandler(definitions, reader, store, tools, runner, router, remoteCalls);
  }
}
