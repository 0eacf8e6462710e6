package dev.agentloop.internal.tool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentloop.spi.AgentTool;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The registry with tools that come and go (MCP servers): looked up anew, accepted by name while not listed. */
class ToolSourcesTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void should_accept_the_names_of_a_source_that_has_not_listed_its_tools_yet_and_need_approval_for_them() {
    FakeSource files = new FakeSource("files");
    ToolRegistry registry = new ToolRegistry(List.of(), List.of(files));
    ToolApprovals approvals = new ToolApprovals(registry, Map.of("files__write_file", true));

    assertThat(registry.contains("files__read")).isFalse();
    assertThat(registry.accepts("files__read")).isTrue();
    assertThat(registry.accepts("other__read")).isFalse();
    assertThat(approvals.needsApproval("files__read")).isTrue();
    assertThat(registry.sources()).containsExactly("files");
  }

  @Test
  void should_know_exactly_the_listed_tools_once_the_source_listed_them_and_follow_its_changes() {
    FakeSource files = new FakeSource("files");
    ToolRegistry registry = new ToolRegistry(List.of(), List.of(files));

    files.list(tool("files__read", false), tool("files__bad name", false));

    assertThat(registry.accepts("files__write")).isFalse();
    assertThat(registry.names()).containsExactly("files__read");
    assertThat(registry.violations("files__read", JSON.createObjectNode())).containsExactly("required property 'path' not found");
    assertThat(new ToolApprovals(registry, Map.of()).needsApproval("files__read")).isFalse();

    files.list(tool("files__write", true));

    assertThat(registry.names()).containsExactly("files__write");
    assertThat(registry.find("files__read")).isEmpty();
  }

  @Test
  void should_refuse_a_fixed_tool_whose_name_a_source_claims() {
    assertThatThrownBy(() -> new ToolRegistry(List.of(tool("files__read", false)), List.of(new FakeSource("files"))))
        .hasMessage("tool name 'files__read' is taken by an MCP server's tools");
  }

  private static AgentTool tool(String name, boolean sideEffects) {
    JsonNode schema = JSON.createObjectNode().put("type", "object")
        .set("required", JSON.createArrayNode().add("path"));
    return new RemoteTool(name, "test tool", schema, sideEffects);
  }

  private static final class FakeSource implements ToolSource {
    private final String name;
    private volatile Map<String, AgentTool> tools = Map.of();
    private volatile boolean listed;

    FakeSource(String name) {
      this.name = name;
    }

    void list(AgentTool... offered) {
      Map<String, AgentTool> byName = new LinkedHashMap<>();
      for (AgentTool tool : offered) {
        byName.put(tool.name(), tool);
      }
      tools = byName;
      listed = true;
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public Map<String, AgentTool> tools() {
      return tools;
    }

    @Override
    public boolean claims(String toolName) {
      return toolName.startsWith(name + "__");
    }

    @Override
    public boolean listed() {
      return listed;
    }
  }
}
