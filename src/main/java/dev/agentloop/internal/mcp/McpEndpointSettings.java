package dev.agentloop.internal.mcp;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import java.time.Duration;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * AgentLoop's MCP server ({@code agentloop.mcp.*}, bound by package {@code config}).
 *
 * @param enabled whether agents are served as MCP tools (only in a servlet web application)
 * @param path where: the streamable HTTP endpoint, behind the same authentication as the REST API
 * @param callTimeout how long a tool call waits for its run's answer; then it returns the run's id and how to fetch
 *     the answer later, and the run goes on. Below the time-out of the clients (many give up after 60 seconds, and
 *     a client that gives up may cancel the call, which stops the run)
 * @param maxRequestBytes the largest JSON-RPC message read
 */
public record McpEndpointSettings(
    @DefaultValue("true") boolean enabled,
    @NotNull @DefaultValue("/mcp") @Pattern(regexp = "/[A-Za-z0-9._~/-]*[A-Za-z0-9._~-]",
        message = "must start with / and not end with /, e.g. /mcp") String path,
    @NotNull @DefaultValue("PT50S") Duration callTimeout,
    @Min(1024) @Max(64 * 1024 * 1024) @DefaultValue("1048576") int maxRequestBytes) {

  public static final McpEndpointSettings DEFAULTS = new McpEndpointSettings(true, "/mcp", Duration.ofSeconds(50), 1 << 20);

  public McpEndpointSettings {
    if (callTimeout == null || callTimeout.isNegative() || callTimeout.isZero()) {
      throw new IllegalArgumentException("callTimeout must be a positive duration, was " + callTimeout);
    }
  }
}
