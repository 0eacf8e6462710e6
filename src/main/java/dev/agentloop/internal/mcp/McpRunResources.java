package dev.agentloop.internal.mcp;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.agentloop.api.UnknownRunException;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.internal.security.RunAccess;
import io.modelcontextprotocol.server.McpAsyncServerExchange;
import io.modelcontextprotocol.server.McpServerFeatures.AsyncResourceTemplateSpecification;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import org.camunda.bpm.engine.IdentityService;
import org.springframework.http.converter.json.Jackson2ObjectMapperBuilder;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Runs as MCP resources, {@code agentloop://runs/{runId}}: the run view as {@code GET /api/runs/{id}} shows it,
 * for whoever may read the run — how a client whose call timed out fetches the answer later without leaving MCP.
 */
final class McpRunResources {

  static final String TEMPLATE = "agentloop://runs/{runId}";
  private static final String PREFIX = "agentloop://runs/";
  private static final ObjectMapper JSON = Jackson2ObjectMapperBuilder.json()
      .featuresToDisable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS).build();

  private final RunService runs;
  private final RunAccess access;
  private final IdentityService identity;

  McpRunResources(RunService runs, RunAccess access, IdentityService identity) {
    this.runs = runs;
    this.access = access;
    this.identity = identity;
  }

  static String uri(String runId) {
    return PREFIX + runId;
  }

  AsyncResourceTemplateSpecification specification() {
    McpSchema.ResourceTemplate template = McpSchema.ResourceTemplate.builder(TEMPLATE, "run")
        .title("An agent run").mimeType("application/json")
        .description("How a run stands, as GET /api/runs/{id} shows it: status, what it waits for, finalAnswer, turns,"
            + " costs. A tool call that timed out names its run in its result's _meta (agentloop/runId).")
        .build();
    return new AsyncResourceTemplateSpecification(template, this::read);
  }

  private Mono<McpSchema.ReadResourceResult> read(McpAsyncServerExchange exchange, McpSchema.ReadResourceRequest read) {
    McpCaller caller = McpCaller.of(exchange.transportContext());
    return Mono.fromCallable(() -> caller.run(identity, () -> view(read.uri())))
        .subscribeOn(Schedulers.boundedElastic());
  }

  private McpSchema.ReadResourceResult view(String uri) {
    String runId = uri.startsWith(PREFIX) ? uri.substring(PREFIX.length()) : "";
    // a run the caller may not read is as unknown as one that does not exist, as on the REST API
    if (runId.isEmpty() || runId.contains("/") || !access.mayRead(runId)) {
      throw notFound(uri);
    }
    try {
      String text = JSON.writeValueAsString(runs.view(runId));
      return new McpSchema.ReadResourceResult(List.of(new McpSchema.TextResourceContents(uri, "application/json",
          text)));
    } catch (UnknownRunException e) {
      throw notFound(uri);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("run " + runId + " could not be written as JSON", e);
    }
  }

  private static McpError notFound(String uri) {
    return McpError.RESOURCE_NOT_FOUND.apply(uri);
  }
}
