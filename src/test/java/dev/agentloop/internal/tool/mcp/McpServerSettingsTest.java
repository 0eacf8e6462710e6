package dev.agentloop.internal.tool.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentloop.internal.tool.mcp.McpServerSettings.Transport;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class McpServerSettingsTest {

  @Test
  void should_take_a_command_as_stdio_and_a_url_as_streamable_http_with_defaults() {
    McpServerSettings stdio = McpServerSettings.stdio("npx", List.of("-y", "@modelcontextprotocol/server-everything"));
    McpServerSettings http = McpServerSettings.http("https://mcp.example.com/mcp");

    assertThat(stdio.transport()).isEqualTo(Transport.STDIO);
    assertThat(http.transport()).isEqualTo(Transport.STREAMABLE_HTTP);
    assertThat(http.startupTimeout()).isEqualTo(Duration.ofSeconds(60));
    assertThat(http.pingInterval()).isEqualTo(Duration.ofSeconds(10));
    assertThat(http.timeout()).isNull();
    assertThat(stdio.env()).isEmpty();
  }

  @Test
  void should_refuse_a_server_with_both_or_neither_of_command_and_url() {
    assertThatThrownBy(() -> new McpServerSettings("npx", null, null, null, "http://localhost/mcp", null, null, null,
        null, null)).hasMessage("an MCP server needs either a command (stdio) or a url (HTTP), not both");
    assertThatThrownBy(() -> new McpServerSettings(" ", null, null, null, null, null, null, null, null, null))
        .hasMessage("an MCP server needs either a command (stdio) or a url (HTTP), not neither");
  }

  @Test
  void should_refuse_a_transport_that_does_not_fit_and_bad_urls_and_durations() {
    assertThatThrownBy(() -> new McpServerSettings("npx", null, null, null, null, null, Transport.SSE, null, null,
        null)).hasMessage("transport SSE does not fit a command");
    assertThatThrownBy(() -> McpServerSettings.http("ftp://example.com/mcp"))
        .hasMessage("url 'ftp://example.com/mcp' must be http or https");
    assertThatThrownBy(() -> new McpServerSettings(null, null, null, null, "http://localhost/mcp", Map.of(), null,
        Duration.ZERO, null, null)).hasMessage("timeout must be positive, not PT0S");
  }

  @Test
  void should_refuse_server_names_that_would_make_tool_names_ambiguous() {
    assertThatThrownBy(() -> McpServers.start(Map.of("my_files", McpServerSettings.http("http://localhost:1/mcp")),
        Duration.ofSeconds(1)))
        .hasMessageStartingWith("agentloop.tools.mcp.my_files: a server's name must match [A-Za-z0-9-]{1,32}");
  }
}
