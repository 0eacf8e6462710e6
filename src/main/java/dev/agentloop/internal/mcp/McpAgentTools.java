package dev.agentloop.internal.mcp;

import dev.agentloop.internal.agent.definition.AgentsAsTools;
import dev.agentloop.internal.security.RunAccess;
import dev.agentloop.spi.AgentTool;
import io.modelcontextprotocol.server.McpAsyncListFilter;
import io.modelcontextprotocol.server.McpAsyncServer;
import io.modelcontextprotocol.server.McpServerFeatures.AsyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import org.camunda.bpm.engine.IdentityService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The deployed agents as the MCP server's tools, kept in step with deployments: before a request is served, the
 * agents deployed (read again at most every few seconds, on any node, see {@link AgentsAsTools}) are compared with
 * the server's tools, and tools are added, changed or removed (clients are told the list changed). A caller is
 * shown only the agents they may start ({@link #visibleToCaller}). Thread-safe.
 */
final class McpAgentTools {

  private static final Logger LOG = LoggerFactory.getLogger(McpAgentTools.class);
  /** What MCP allows in a tool's name. */
  private static final Pattern TOOL_NAME = Pattern.compile("[A-Za-z0-9_.-]{1,128}");

  private final AgentsAsTools agents;
  private final RunAccess access;
  private final IdentityService identity;
  private final McpToolCalls calls;
  private final Map<String, String> served = new HashMap<>();
  private final Set<String> refused = ConcurrentHashMap.newKeySet();

  McpAgentTools(AgentsAsTools agents, RunAccess access, IdentityService identity, McpToolCalls calls) {
    this.agents = agents;
    this.access = access;
    this.identity = identity;
    this.calls = calls;
  }

  /** Brings the server's tools in step with the deployed agents. */
  synchronized void refresh(McpAsyncServer server) {
    Map<String, String> current = new LinkedHashMap<>();
    agents.tools().values().stream().filter(this::servable).forEach(agent ->
        current.put(agent.name(), agent.description()));
    for (String gone : Set.copyOf(served.keySet())) {
      if (!current.containsKey(gone) || !current.get(gone).equals(served.get(gone))) {
        server.removeTool(gone).block();
        served.remove(gone);
      }
    }
    current.forEach((key, description) -> {
      if (!served.containsKey(key)) {
        server.addTool(specification(key, description)).block();
        served.put(key, description);
      }
    });
  }

  /** Shows a caller the tools of the agents they may start, as the engine would let them start one. */
  McpAsyncListFilter<McpSchema.Tool> visibleToCaller() {
    return McpAsyncListFilter.fromSync((context, tool) -> McpCaller.of(context)
        .run(identity, () -> access.mayStart(tool.name())), false);
  }

  private boolean servable(AgentTool agent) {
    if (TOOL_NAME.matcher(agent.name()).matches()) {
      return true;
    }
    if (refused.add(agent.name())) {
      LOG.warn("AGENTLOOP-511 Agent '{}' is not served as an MCP tool: MCP tool names have 1 to 128 letters, digits,"
          + " '_', '-' or '.'. Deploy it under such a key to offer it to MCP clients", agent.name());
    }
    return false;
  }

  private AsyncToolSpecification specification(String key, String description) {
    McpSchema.Tool tool = McpSchema.Tool.builder().name(key).description(description)
        .inputSchema(inputSchema())
        .annotations(new McpSchema.ToolAnnotations(null, false, false, false, true, null))
        .build();
    return AsyncToolSpecification.builder().tool(tool)
        .callHandler((exchange, request) -> calls.call(exchange, request)).build();
  }

  /** A question, and the caller's conversation id: a conversation's next question goes to its open run. */
  private static Map<String, Object> inputSchema() {
    Map<String, Object> properties = new LinkedHashMap<>();
    properties.put("question", Map.of("type", "string", "minLength", 1,
        "description", "what the agent should answer"));
    properties.put("conversationId", Map.of("type", "string", "minLength", 1, "maxLength", 255,
        "description", "the caller's id of a conversation: a question under the id of an open conversation with"
            + " this agent (one that waits for its next question) is that conversation's next turn; else a new run"
            + " starts under it"));
    Map<String, Object> schema = new LinkedHashMap<>();
    schema.put("type", "object");
    schema.put("properties", properties);
    schema.put("required", List.of("question"));
    schema.put("additionalProperties", false);
    return schema;
  }
}
