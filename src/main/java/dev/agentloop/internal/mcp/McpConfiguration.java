package dev.agentloop.internal.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentloop.internal.agent.definition.AgentsAsTools;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.internal.events.RunEvents;
import dev.agentloop.internal.resume.Conversations;
import dev.agentloop.internal.resume.ResumeService;
import dev.agentloop.internal.security.ApiSettings;
import dev.agentloop.internal.security.ProtocolPath;
import dev.agentloop.internal.security.RunAccess;
import dev.agentloop.internal.trace.StepStore;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpAsyncServer;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import org.camunda.bpm.engine.ProcessEngine;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * AgentLoop's MCP server at {@code agentloop.mcp.path}: the SDK's streamable HTTP transport in a servlet of
 * AgentLoop's ({@link McpServlet}), behind the REST API's authentication ({@link ProtocolPath}). Only in a servlet
 * web application, and unless {@code agentloop.mcp.enabled=false}.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnProperty(name = "agentloop.mcp.enabled", havingValue = "true", matchIfMissing = true)
public class McpConfiguration {

  /** How often the transport pings an idle session's stream, so that proxies keep it open. */
  private static final Duration KEEP_ALIVE = Duration.ofSeconds(30);

  @Bean
  ProtocolPath agentLoopMcpPath(McpEndpointSettings settings) {
    return new ProtocolPath(settings.path());
  }

  @Bean
  McpCalls agentLoopMcpCalls() {
    return new McpCalls();
  }

  @Bean
  McpAgentTools agentLoopMcpTools(AgentsAsTools agents, RunAccess access, ProcessEngine engine, RunService runs,
      Conversations conversations, StepStore store, RunEvents events, ResumeService resume, McpCalls calls,
      ApiSettings api, McpEndpointSettings settings) {
    RunOpening opening = new RunOpening(runs, conversations, access, store);
    McpToolCalls toolCalls = new McpToolCalls(opening, events, runs, resume, calls, new McpAnswers(api.basePath()),
        engine.getIdentityService(), settings);
    return new McpAgentTools(agents, access, engine.getIdentityService(), toolCalls);
  }

  @Bean
  HttpServletStreamableServerTransportProvider agentLoopMcpTransport(McpEndpointSettings settings, ProcessEngine engine,
      ObjectProvider<McpAsyncServer> server, McpAgentTools tools) {
    return HttpServletStreamableServerTransportProvider.builder()
        .jsonMapper(new JacksonMcpJsonMapper(new ObjectMapper()))
        .mcpEndpoint(settings.path())
        .keepAliveInterval(KEEP_ALIVE)
        .maxRequestSize(settings.maxRequestBytes())
        .contextExtractor(request -> {
          tools.refresh(server.getObject());
          return McpCaller.context(McpCaller.current(engine.getIdentityService()),
              request.getAttribute(McpCaller.REQUEST_ID));
        })
        .build();
  }

  @Bean(destroyMethod = "close")
  McpAsyncServer agentLoopMcpServer(HttpServletStreamableServerTransportProvider transport, McpAgentTools tools,
      RunService runs, RunAccess access, ProcessEngine engine) {
    String version = McpConfiguration.class.getPackage().getImplementationVersion();
    return McpServer.async(transport)
        .serverInfo("agentloop", version == null ? "development" : version)
        .instructions("Each tool is an AgentLoop agent: a call asks it a question and answers with its answer. People"
            + " may review the agent's plan or answer first: progress notifications name what it waits for. A call"
            + " that takes too long returns the run's id; read the resource agentloop://runs/{runId} for its answer.")
        .capabilities(McpSchema.ServerCapabilities.builder().tools(true).resources(false, true).build())
        .addToolFilter(tools.visibleToCaller())
        .resourceTemplates(new McpRunResources(runs, access, engine.getIdentityService()).specification())
        .build();
  }

  @Bean
  ServletRegistrationBean<McpServlet> agentLoopMcpServlet(HttpServletStreamableServerTransportProvider transport,
      McpAsyncServer server, McpCalls calls, ProcessEngine engine, McpEndpointSettings settings) {
    ServletRegistrationBean<McpServlet> registration = new ServletRegistrationBean<>(
        new McpServlet(transport, calls, engine.getIdentityService(), settings.maxRequestBytes()), settings.path());
    registration.setName("agentloop-mcp");
    registration.setAsyncSupported(true);
    registration.setLoadOnStartup(1);
    return registration;
  }
}
