package dev.agentloop.internal.tool.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What of a tool result the model sees: text and JSON as they are, binary content only named. */
class McpResultsTest {

  @Test
  void should_give_structured_content_as_json_when_there_is_no_text() {
    McpSchema.CallToolResult result = new McpSchema.CallToolResult(List.of(), false,
        Map.of("temperature", 21.5), null);

    assertThat(McpResults.observation(result)).isEqualTo("{\"temperature\":21.5}");
  }

  @Test
  void should_keep_text_and_leave_the_structured_copy_out() {
    McpSchema.CallToolResult result = new McpSchema.CallToolResult(
        List.of(new McpSchema.TextContent("{\"temperature\": 21.5}")), false, Map.of("temperature", 21.5), null);

    assertThat(McpResults.observation(result)).isEqualTo("{\"temperature\": 21.5}");
  }

  @Test
  void should_name_binary_content_and_links_but_keep_text_resources() {
    McpSchema.CallToolResult result = new McpSchema.CallToolResult(List.of(
        new McpSchema.AudioContent(null, "AAAAAAAA", "audio/wav"),
        new McpSchema.EmbeddedResource(null, new McpSchema.BlobResourceContents("file:///a.gz", "application/gzip", "AAAA")),
        new McpSchema.EmbeddedResource(null, new McpSchema.TextResourceContents("file:///notes.txt", "text/plain", "hello")),
        McpSchema.ResourceLink.builder().uri("file:///big.csv").name("big.csv").mimeType("text/csv").build()),
        false, null, null);

    assertThat(McpResults.observation(result)).isEqualTo("""
        [audio audio/wav, 6 bytes, not shown]
        [resource file:///a.gz, application/gzip, 3 bytes, not shown]
        [resource file:///notes.txt, text/plain]
        hello
        [resource link file:///big.csv (big.csv), text/csv]""");
  }
}
